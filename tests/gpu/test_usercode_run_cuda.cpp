// Users' own kernels run in the worker process (kernelscope-cli worker) and checked against the CPU reference of
// the built-in kernel they imitate: the 3x3 template against box radius 1 (f32 within 1e-5, u8 exact) on odd
// sizes, 1 and 4 channels, several border modes and blocks; the raw signature; and the faults that must never
// take the caller down: an illegal address, a trap and an endless loop each come back as a message, and the next
// good kernel runs (tests/gpu_faults, alone on the GPU).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <random>

#include "core/error.hpp"
#include "registry/registry.hpp"
#include "stencil/border.hpp"
#include "stencil/cpu/stencil_cpu.hpp"
#include "stencil/stencil_plan.hpp"
#include "support/test_support.hpp"
#include "support/user_kernel_runs.hpp"
#include "support/user_kernel_sources.hpp"
#include "usercode/run/user_array.hpp"
#include "usercode/run/user_step.hpp"
#include "usercode/run/user_stencil.hpp"
#include "usercode/run/worker_client.hpp"
#include "usercode/source_text.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::usercode {
namespace {

using namespace std::chrono_literals;
using namespace test::user_kernels;

const char kInvertRaw[] = R"(// @family stencil
// @param offset int [0, 255] = 255
__global__ void invert(const unsigned char* in, unsigned char* out, int width, int height, int channels, int pitch,
                       int offset) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  for (int c = 0; c < channels; ++c) out[y * pitch + x * channels + c] = offset - in[y * pitch + x * channels + c];
}
)";

TEST(UserKernelRunCuda, TheSmoothingTemplateEqualsTheBoxFilterOnOddSizesBordersAndBlocks) {
  KS_REQUIRE_GPU();
  const CompiledKernel k = compile_template("smooth3x3.cu");
  ASSERT_TRUE(k.ok());
  struct Case {
    int w, h, c;
    const char* border;
    std::array<unsigned, 2> block;
  };
  for (const Case& c : {Case{1, 1, 1, "reflect101", {32, 8}}, Case{1023, 7, 1, "wrap", {16, 16}},
                        Case{67, 45, 4, "constant", {128, 1}}, Case{64, 48, 1, "replicate", {1, 64}},
                        Case{33, 17, 4, "reflect", {8, 8}}}) {
    SCOPED_TRACE(std::to_string(c.w) + "x" + std::to_string(c.h) + " " + std::to_string(c.c) + "ch " + c.border);
    const Image input = test::random_image(c.w, c.h, c.c, ElemType::F32, 7 + c.w);
    const UserStencilRun run = run_user_stencil(worker(), k, input, static_cast<int>(border_from_string(c.border)),
                                                0.75, launch(c.block, {1.0}));
    ASSERT_EQ(run.reply.outcome, RunOutcome::Ok) << run.reply.message;
    EXPECT_TRUE(test::images_match(run.output, box3x3_reference(input, c.border, "0.75"), 1e-5));
    EXPECT_EQ(run.reply.kernel_ms.size(), 2u);
    for (double ms : run.reply.kernel_ms) EXPECT_GT(ms, 0);
  }
}

TEST(UserKernelRunCuda, AU8SmoothingEqualsTheBuiltInsBytesAndTheStrengthParameterArrives) {
  KS_REQUIRE_GPU();
  const CompiledKernel k = compile("smooth_u8.cu", test::kSmoothU8WithBias, worker().hello().arch);
  const Image input = test::random_image(257, 31, 4, ElemType::U8, 3);
  const UserStencilRun run = run_user_stencil(worker(), k, input, static_cast<int>(Border::Reflect101), 0,
                                              launch({32, 8}));
  ASSERT_EQ(run.reply.outcome, RunOutcome::Ok) << run.reply.message;
  EXPECT_TRUE(test::images_match(run.output, box3x3_reference(input, "reflect101", "0"), 0));

  // strength 0 keeps the image (the declared float parameter reaches the kernel)
  const CompiledKernel smooth = compile_template("smooth3x3.cu");
  const Image f32 = test::random_image(40, 30, 1, ElemType::F32, 4);
  const UserStencilRun kept =
      run_user_stencil(worker(), smooth, f32, static_cast<int>(Border::Reflect101), 0, launch({32, 8}, {0.0}));
  ASSERT_EQ(kept.reply.outcome, RunOutcome::Ok) << kept.reply.message;
  EXPECT_TRUE(test::images_match(kept.output, f32, 0));
}

TEST(UserKernelRunCuda, TheRawSignatureGetsSizeChannelsAndPitch) {
  KS_REQUIRE_GPU();
  const CompiledKernel k = compile("invert.cu", kInvertRaw, worker().hello().arch);
  const Image input = test::random_image(1023, 7, 4, ElemType::U8, 5);
  const UserStencilRun run =
      run_user_stencil(worker(), k, input, 0, 0, launch({32, 8}, {200.0}));
  ASSERT_EQ(run.reply.outcome, RunOutcome::Ok) << run.reply.message;
  Image expected(input.shape());
  for (std::size_t i = 0; i < input.elements<std::uint8_t>().size(); ++i)
    expected.elements<std::uint8_t>()[i] = static_cast<std::uint8_t>(200 - input.elements<std::uint8_t>()[i]);
  EXPECT_TRUE(test::images_match(run.output, expected, 0));
}

TEST(UserKernelRunCuda, AnUnchangedKernelIsLoadedOnce) {
  KS_REQUIRE_GPU();
  const CompiledKernel k = compile_template("smooth3x3.cu");
  const Image input = test::random_image(64, 64, 1, ElemType::F32, 1);
  run_user_stencil(worker(), k, input, 0, 0, launch({32, 8}, {1.0}));
  const UserStencilRun again = run_user_stencil(worker(), k, input, 0, 0, launch({32, 8}, {1.0}));
  ASSERT_EQ(again.reply.outcome, RunOutcome::Ok) << again.reply.message;
  EXPECT_EQ(again.reply.load_ms, 0);
  // The driver's view of the entry, which the report falls back on when NVRTC leaves out ptxas's.
  ASSERT_TRUE(again.reply.attributes.known);
  EXPECT_GT(again.reply.attributes.registers, 0);
  EXPECT_LE(again.reply.attributes.registers, 255);
  if (k.entry_facts().resources_reported) {
    EXPECT_EQ(again.reply.attributes.registers, k.entry_facts().registers);
  }
}

}  // namespace
}  // namespace ks::usercode

namespace ks::usercode {
namespace {

using namespace test::user_kernels;

std::span<const std::byte> bytes_of(const std::vector<float>& v) { return std::as_bytes(std::span(v)); }

TEST(UserKernelRunCuda, VecaddAndAScalarReductionOnSizesThatAreNoMultipleOfTheBlock) {
  KS_REQUIRE_GPU();
  const CompiledKernel vecadd = compile_template("vecadd.cu");
  for (const std::size_t n : {std::size_t{1}, std::size_t{1000003}}) {
    std::vector<float> a(n), b(n);
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = static_cast<float>(i % 1000) * 0.5f;
      b[i] = static_cast<float>((i * 7) % 13) - 6.f;
    }
    UserLaunchOptions o = launch({1000, 1}, {2.5});
    const UserArrayRun run = run_user_array(worker(), vecadd, {bytes_of(a), bytes_of(b)}, n, o);
    ASSERT_EQ(run.reply.outcome, RunOutcome::Ok) << run.reply.message;
    ASSERT_EQ(run.output.size(), n * sizeof(float));
    const float* out = reinterpret_cast<const float*>(run.output.data());
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += out[i] != a[i] + 2.5f * b[i];
    EXPECT_EQ(wrong, 0u) << n;
  }

  // Small integers as floats: the sum is exact whatever order the atomics take.
  const CompiledKernel reduce = compile_template("reduce_sum.cu");
  const std::size_t n = 100003;
  std::vector<float> values(n);
  double expected = 0;
  for (std::size_t i = 0; i < n; ++i) expected += values[i] = static_cast<float>(i % 4);
  const UserArrayRun sum = run_user_array(worker(), reduce, {bytes_of(values)}, n, launch({256, 1}));
  ASSERT_EQ(sum.reply.outcome, RunOutcome::Ok) << sum.reply.message;
  ASSERT_EQ(sum.output.size(), sizeof(float));
  // Every timed launch starts from zero: the result is one sum, not repeat x the sum.
  EXPECT_EQ(*reinterpret_cast<const float*>(sum.output.data()), static_cast<float>(expected));
  EXPECT_THROW(run_user_array(worker(), reduce, {bytes_of(values), bytes_of(values)}, n, launch({256, 1})), Error);
}

// Conway's rule on a torus with `birth` neighbours bringing a dead cell to life: the test's own reference.
Image life_reference(Image state, int steps, int birth) {
  const int w = state.width(), h = state.height();
  for (int s = 0; s < steps; ++s) {
    Image next(state.shape());
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        int n = 0;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx)
            if (dx || dy) n += state.row<std::uint8_t>((y + dy + h) % h)[(x + dx + w) % w];
        const bool alive = state.row<std::uint8_t>(y)[x] != 0;
        next.row<std::uint8_t>(y)[x] = (alive && (n == 2 || n == 3)) || (!alive && n == birth) ? 1 : 0;
      }
    state = std::move(next);
  }
  return state;
}

TEST(UserKernelRunCuda, TheLifeStepTemplateMatchesTheRuleOverManySteps) {
  KS_REQUIRE_GPU();
  const CompiledKernel life = compile_template("life_step.cu");
  for (const auto [w, h, steps, birth] : {std::array{67, 45, 25, 3}, std::array{1, 1, 3, 3}, std::array{1023, 7, 9, 2}}) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    Image soup(w, h, 1, ElemType::U8);
    std::mt19937 random(static_cast<unsigned>(w * 31 + h));
    for (auto& c : soup.elements<std::uint8_t>()) c = random() % 3 == 0 ? 1 : 0;
    const UserStepRun run =
        run_user_steps(worker(), life, soup, steps, launch({16, 16}, {static_cast<double>(birth)}));
    ASSERT_EQ(run.reply.outcome, RunOutcome::Ok) << run.reply.message;
    EXPECT_EQ(run.reply.kernel_ms.size(), static_cast<std::size_t>(steps));
    EXPECT_TRUE(test::images_match(run.state, life_reference(soup, steps, birth), 0));
  }
}

}  // namespace
}  // namespace ks::usercode

namespace ks::usercode {
namespace {

// The border remap users' kernels get (the prelude hands NVRTC core/border_remap.hpp) and the built-ins' (the
// same header, compiled by nvcc and the host compiler) give the same index for every mode, for positions up to
// several image sizes off either side, sizes 1 to 8 included.
TEST(UserKernelRunCuda, TheBorderRemapThroughNvrtcEqualsTheBuiltInsForEveryMode) {
  KS_REQUIRE_GPU();
  const CompiledKernel k = compile("remaps.cu", test::kBorderRemaps, worker().hello().arch);
  for (const int size : {1, 2, 3, 5, 8}) {
    std::vector<int> positions;
    for (int p = -3 * size - 2; p <= 4 * size + 2; ++p) positions.push_back(p);
    for (const Border border :
         {Border::Replicate, Border::Reflect, Border::Reflect101, Border::Wrap, Border::Constant}) {
      SCOPED_TRACE(std::string(to_string(border)) + " size " + std::to_string(size));
      const UserArrayRun run = run_user_array(worker(), k, {std::as_bytes(std::span(positions))}, positions.size(),
                                              launch({64, 1}, {double(size), double(static_cast<int>(border))}));
      ASSERT_EQ(run.reply.outcome, RunOutcome::Ok) << run.reply.message;
      ASSERT_EQ(run.output.size(), positions.size() * sizeof(int));
      const int* got = reinterpret_cast<const int*>(run.output.data());
      for (std::size_t i = 0; i < positions.size(); ++i)
        ASSERT_EQ(got[i], remap(positions[i], size, border)) << "position " << positions[i];
    }
  }
}

}  // namespace
}  // namespace ks::usercode
