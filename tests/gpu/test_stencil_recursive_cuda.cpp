// The gaussian's CUDA "recursive" variant against the CPU's cpu_recursive (the same filter and borders, so
// tightly: the GPU cuts lines into segments whose warm-ups differ from the CPU's whole lines by less than 1e-5
// of the range) and against the exact Gaussian within the tolerance the README states (0.1% of the value range),
// on odd sizes, every border mode, f32 and u8, 1 and 4 channels, several blocks, and lines long enough to be cut
// into several segments.
#include <gtest/gtest.h>

#include <string>

#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "stencil/cpu/recursive_cpu.hpp"
#include "stencil/cuda/stencil_cuda.hpp"
#include "stencil/stencil_math.hpp"
#include "support/exact_gaussian.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

Engine& engine() {
  static Engine e(Engine::Options{0});
  return e;
}

using test::gaussian_params;

struct Checked {
  double against_cpu, against_exact;
};

Checked check(const Image& in, double sigma, const char* border, BlockShape block, bool exact = true) {
  const double border_value = in.type() == ElemType::U8 ? 200.6 : 0.75;
  const StencilPlan plan = make_stencil_plan("gaussian", gaussian_params(sigma, border, border_value));
  Image cpu(in.shape());
  cpu::run_recursive_gaussian(plan, in, cpu, engine().pool());
  const cuda::StencilRun run = cuda::run_stencil(engine().cuda(), plan, "recursive", in, block, 0, 1);
  Checked c{test::largest_difference(run.output, cpu), 0};
  if (exact) {
    const double outside = in.type() == ElemType::U8 ? double(saturate_u8(float(border_value))) : border_value;
    c.against_exact = test::largest_difference(
        run.output, test::exact_gaussian(in, sigma, border_from_string(border), outside));
  }
  return c;
}

const BlockShape kBlocks[] = {{32, 8}, {16, 16}, {128, 1}, {1, 64}};

// Odd sizes in every border mode, f32 and u8, 1 and 4 channels (support/exact_gaussian.hpp's sweep).
TEST(CudaRecursive, MatchesTheCpuRecursiveAndTheExactGaussian) {
  KS_REQUIRE_GPU();
  int block = 0;
  test::for_each_recursive_case(5, [&](const test::RecursiveCase& rc) {
    const Checked c = check(rc.in, rc.sigma, rc.border, kBlocks[block++ % std::size(kBlocks)]);
    const bool u8 = rc.in.type() == ElemType::U8;
    EXPECT_LE(c.against_cpu, u8 ? 1.0 : 1e-4);
    EXPECT_LE(c.against_exact, u8 ? 0.5 + 0.001 * 255 : 0.001);
  });
}

// Rows and columns longer than a segment (1024 samples at these sigmas): the segments' warm-ups over their
// neighbours' pixels, on both passes, against the CPU's whole lines.
TEST(CudaRecursive, LinesCutIntoSegments) {
  KS_REQUIRE_GPU();
  std::uint32_t seed = 90;
  for (const auto& size : {std::pair{2500, 40}, std::pair{40, 2500}, std::pair{3001, 2049}})
    for (ElemType type : {ElemType::F32, ElemType::U8})
      for (double sigma : {2.0, 64.0}) {
        SCOPED_TRACE(std::to_string(size.first) + "x" + std::to_string(size.second) + " " + to_string(type) +
                     " sigma " + std::to_string(sigma));
        const Image in = test::random_image(size.first, size.second, 1, type, seed++);
        const Checked c = check(in, sigma, "reflect101", {32, 8}, false);
        EXPECT_LE(c.against_cpu, type == ElemType::U8 ? 1.0 : 1e-4);
      }
}

// Sizes on and around the tiles' edges (64 pixels a side, 32 for four channels): a tile's last row and column,
// one past them, lines of a single pixel across many tiles; every border mode, sigma 2 and 64. Each launch runs
// three times (its scratch buffers are made on the first and reused).
TEST(CudaRecursive, TileEdges) {
  KS_REQUIRE_GPU();
  std::uint32_t seed = 200;
  const struct {
    int w, h;
  } sizes[] = {{64, 64}, {63, 65}, {129, 128}, {1, 130}, {130, 1}, {193, 67}, {32, 33}};
  for (const auto& size : sizes)
    for (ElemType type : {ElemType::F32, ElemType::U8})
      for (int channels : {1, 4})
        for (double sigma : {2.0, 64.0})
          for (const char* border : {"reflect101", "reflect", "replicate", "wrap", "constant"}) {
            SCOPED_TRACE(std::to_string(size.w) + "x" + std::to_string(size.h) + " " + to_string(type) + " " +
                         std::to_string(channels) + "ch sigma " + std::to_string(sigma) + " " + border);
            const Image in = test::random_image(size.w, size.h, channels, type, seed++);
            const double border_value = type == ElemType::U8 ? 200.6 : 0.75;
            const StencilPlan plan = make_stencil_plan("gaussian", gaussian_params(sigma, border, border_value));
            Image cpu(in.shape());
            cpu::run_recursive_gaussian(plan, in, cpu, engine().pool());
            const cuda::StencilRun run = cuda::run_stencil(engine().cuda(), plan, "recursive", in, {32, 8}, 1, 2);
            EXPECT_LE(test::largest_difference(run.output, cpu), type == ElemType::U8 ? 1.0 : 1e-4);
          }
}

TEST(CudaRecursive, RefusesWhatItCannotRun) {
  KS_REQUIRE_GPU();
  const Image in = test::random_image(64, 64, 1, ElemType::F32, 3);
  const StencilPlan small = make_stencil_plan("gaussian", gaussian_params(0.5, "reflect101", 0));
  EXPECT_NE(test::usage_error([&] { cuda::run_stencil(engine().cuda(), small, "recursive", in, {32, 8}, 0, 1); })
                .find("sigma >= 1"),
            std::string::npos);
  const StencilPlan box = make_stencil_plan("box", KernelRegistry::builtin().get("box").default_params());
  EXPECT_FALSE(test::usage_error([&] { cuda::run_stencil(engine().cuda(), box, "recursive", in, {32, 8}, 0, 1); })
                   .empty());
}

}  // namespace
}  // namespace ks
