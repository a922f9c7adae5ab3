// Every CUDA variant of every stencil against the CPU reference: u8 bit-exact, f32 within 1e-5 relative, on
// awkward sizes (not multiples of any block), every border mode, 1 and 4 channels, several block shapes. The
// reference is the CPU's scalar path (f32 sums in double), the oracle the CPU backend's SIMD path is held to
// as well (tests/cpu/test_stencil_cpu_simd.cpp).
#include <cctype>
#include <random>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "stencil/cpu/stencil_cpu.hpp"
#include "stencil/cuda/stencil_cuda.hpp"
#include "stencil/tiled_design.hpp"
#include "support/stencil_case.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

using Case = test::StencilCase;
using test::case_name;

// One engine (thread pool and CUDA context) for the whole binary: creating contexts is slow.
Engine& engine() {
  static Engine e(Engine::Options{0});
  return e;
}

// Includes 1x64 and 128x1 (degenerate tiles), 8x8 and 16x16 (warps spanning several block rows) and 1x64, which
// the 3x3 register kernel cannot take (the strip kernel runs instead).
const BlockShape kBlocks[] = {{32, 8}, {16, 16}, {128, 1}, {1, 64}, {8, 8}};

const char* const kBorders[] = {"reflect101", "reflect", "replicate", "wrap", "constant"};

ParamSet params_for(const KernelSpec& spec, const Case& c, const char* border, ElemType type) {
  ParamSet params = spec.default_params();
  for (const char* p : c.params) params.set_assignment(p);
  params.set("border", border);
  // A border value off the integers (u8 rounds it) and inside the f32 range.
  params.set("border_value", type == ElemType::U8 ? "200.6" : "0.75");
  return params;
}

// Runs every applicable CUDA variant of `spec` on `input` and compares each with the CPU reference.
int check_variants(const KernelSpec& spec, const ParamSet& params, const Image& input, int block_seed) {
  const StencilPlan plan = make_stencil_plan(spec.id, params);
  const Image expected = cpu::run_stencil(plan, input, engine().pool(), cpu::CpuPath::Reference);
  int checked = 0, index = block_seed;
  for (const auto& v : spec.variants) {
    if (v.backend != Backend::Cuda || spec.unavailable_reason(v.name, params)) continue;
    if (v.approximate) continue;  // held to its own tolerance (test_stencil_recursive_cuda.cpp)
    const BlockShape block = kBlocks[index++ % std::size(kBlocks)];
    SCOPED_TRACE(spec.id + " " + v.name + " " + params.get_choice("border") + " " + to_string(input.type()) + " " +
                 std::to_string(input.channels()) + "ch " + std::to_string(input.width()) + "x" +
                 std::to_string(input.height()) + " block " + to_string(block));
    cuda::StencilRun run = cuda::run_stencil(engine().cuda(), plan, v.name, input, block, 0, 1);
    EXPECT_TRUE(test::images_match(run.output, expected, 1e-5));
    ++checked;
  }
  return checked;
}

class CudaMatchesCpu : public ::testing::TestWithParam<Case> {};

TEST_P(CudaMatchesCpu, EveryVariantBorderTypeAndSize) {
  KS_REQUIRE_GPU();
  const Case& c = GetParam();
  const KernelSpec& spec = KernelRegistry::builtin().get(c.kernel);
  const struct {
    int w, h;
  } sizes[] = {{1, 1}, {3, 5}, {1023, 7}, {4097, 33}};
  std::uint32_t seed = 1;
  int checked = 0;
  for (const char* border : kBorders)
    for (ElemType type : {ElemType::U8, ElemType::F32}) {
      const ParamSet params = params_for(spec, c, border, type);
      for (int channels : {1, 4})
        for (const auto& size : sizes) {
          const Image input = test::random_image(size.w, size.h, channels, type, seed);
          checked += check_variants(spec, params, input, int(seed++));
          if (HasFailure()) return;  // one failing combination says enough; don't drown it
        }
    }
  EXPECT_GT(checked, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Stencils, CudaMatchesCpu,
    ::testing::Values(Case{"box", {"radius=1"}}, Case{"box", {"radius=4"}}, Case{"box", {"radius=20"}},
                      Case{"gaussian", {"sigma=0.5"}}, Case{"gaussian", {"sigma=1.5"}}, Case{"gaussian", {"sigma=8"}},
                      Case{"sobel", {"output=magnitude"}}, Case{"sobel", {"output=dx"}},
                      Case{"sobel", {"output=dy"}}, Case{"laplacian", {"neighbours=4"}},
                      Case{"laplacian", {"neighbours=8"}}, Case{"sharpen", {"amount=1.5", "sigma=1"}},
                      Case{"sharpen", {"amount=3", "sigma=0.3"}}, Case{"median", {"radius=1"}},
                      Case{"median", {"radius=2"}}, Case{"median", {"radius=3"}},
                      Case{"convolve", {"matrix=1,2,1;2,4,2;1,2,1", "normalize=true"}},
                      Case{"convolve", {"matrix=0.1,-0.25,0.3,0.05,0.2"}},
                      // The sizes the tiled kernels specialise on: 1x1, rank 1 or not, integer or fixed-point
                      // weights, radii 0..7 on either axis (window_multi's template radius).
                      Case{"convolve", {"matrix=3"}}, Case{"convolve", {"matrix=1,-2,3;-4,5,-6;7,-8,9"}},
                      Case{"convolve", {"matrix=1;-3;1"}},
                      Case{"convolve", {"matrix=1,2,3,2,1;2,4,6,4,2;-1,-2,-3,-2,-1;0,0,0,0,0;3,6,9,6,3"}},
                      Case{"convolve", {"matrix=1,0,2,0,1;0,3,0,-1,0;2,0,-5,0,2;0,-1,0,3,0;1,0,2,0,1",
                                        "normalize=true"}},
                      Case{"convolve", {"matrix=0.5,0.25,0.125;0.25,0.125,0.0625;0.125,0.0625,0.03125"}},
                      Case{"convolve", {"matrix=0.3,-0.1,0.7;0.2,0.9,-0.4;0.15,0.05,0.6"}}),
    [](const ::testing::TestParamInfo<Case>& info) { return case_name(info.param); });

// Every block shape on every variant, for the kernels whose separable variant has two implementations (3x3
// register kernel / strip kernel): the choice depends on the block, the result must not.
TEST(CudaBlocks, EveryBlockShapeGivesTheSameResult) {
  KS_REQUIRE_GPU();
  const Case cases[] = {{"box", {"radius=1"}},      {"sobel", {"output=magnitude"}}, {"sharpen", {"sigma=0.3"}},
                        {"gaussian", {"sigma=3"}},    {"median", {"radius=1"}},        {"median", {"radius=2"}},
                        {"laplacian", {}},            {"convolve", {"matrix=1,2,1;0,1,0;-1,3,1"}}};
  std::uint32_t seed = 100;
  for (const Case& c : cases) {
    const KernelSpec& spec = KernelRegistry::builtin().get(c.kernel);
    for (ElemType type : {ElemType::U8, ElemType::F32})
      for (int channels : {1, 4}) {
        const ParamSet params = params_for(spec, c, seed % 2 ? "constant" : "reflect101", type);
        const Image input = test::random_image(301, 77, channels, type, seed++);
        for (int b = 0; b < int(std::size(kBlocks)); ++b) check_variants(spec, params, input, b);
        if (HasFailure()) return;
      }
  }
}

// Matrices as convolve's parameter text, rows separated by ';'.
std::string matrix_text(const std::vector<std::vector<int>>& m) {
  std::string s = "matrix=";
  for (std::size_t y = 0; y < m.size(); ++y) {
    if (y) s += ";";
    for (std::size_t x = 0; x < m[y].size(); ++x) {
      if (x) s += ",";
      s += std::to_string(m[y][x]);
    }
  }
  return s;
}

// A w x h matrix of small integers: the outer product of two random vectors (rank 1), or random entries.
std::string random_matrix(int w, int h, bool rank1, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> small(-3, 3);
  std::vector<int> col(static_cast<std::size_t>(h)), row(static_cast<std::size_t>(w));
  for (int& v : col) v = small(rng);
  for (int& v : row) v = small(rng);
  col[std::size_t(h / 2)] = row[std::size_t(w / 2)] = 2;  // never all zeros
  std::vector<std::vector<int>> m(static_cast<std::size_t>(h), std::vector<int>(static_cast<std::size_t>(w)));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      m[std::size_t(y)][std::size_t(x)] = rank1 ? col[std::size_t(y)] * row[std::size_t(x)] : small(rng);
  if (!rank1 && w > 1 && h > 1) m[0][0] = m[0][0] * 7 + 5;  // not a multiple of its row's pattern
  return matrix_text(m);
}

// Every square and some oblong convolve sizes from 1x1 to 15x15, rank 1 and not, u8 and f32: tiled runs the
// multi-output kernel on the matrices that do not separate, the lesson kernel on the others, and separable
// (the strip or 3x3 kernels) on those of rank 1. Sizes past quads and blocks: 1x1, 7x5, 130x9, 261x21.
TEST(CudaConvolve, EveryMatrixSizeRankOneAndNot) {
  KS_REQUIRE_GPU();
  const KernelSpec& spec = KernelRegistry::builtin().get("convolve");
  const struct {
    int w, h;
  } sizes[] = {{1, 1}, {7, 5}, {130, 9}, {261, 21}};
  std::uint32_t seed = 300;
  for (int n = 1; n <= 15; n += 2)
    for (const auto& [w, h] : {std::pair{n, n}, std::pair{n, 16 - n}})  // square, and oblong (1x15 .. 15x1)
      for (bool rank1 : {false, true}) {
        const std::string matrix = random_matrix(w, h, rank1, seed);
        for (ElemType type : {ElemType::U8, ElemType::F32}) {
          ParamSet params = params_for(spec, Case{"convolve", {}}, seed % 2 ? "reflect101" : "constant", type);
          params.set_assignment(matrix);
          SCOPED_TRACE(matrix + (rank1 ? " (rank 1)" : ""));
          const StencilPlan plan = make_stencil_plan("convolve", params);
          if (rank1) {
            EXPECT_TRUE(plan.separable());
          }
          for (const auto& size : sizes) {
            const Image input = test::random_image(size.w, size.h, 1, type, seed++);
            EXPECT_GT(check_variants(spec, params, input, int(seed)), 1);
          }
          if (HasFailure()) return;
        }
      }
}

// The tiled median and window kernels on images a few quads wide and a few rows tall, every block shape: the
// quads that cross the row's end, rows past the last block's, tiles that are all halo.
TEST(CudaTiledKernels, QuadAndRowEdges) {
  KS_REQUIRE_GPU();
  const Case cases[] = {{"median", {"radius=1"}}, {"median", {"radius=2"}}, {"median", {"radius=3"}},
                        {"laplacian", {"neighbours=8"}}, {"convolve", {"matrix=1,2,3;4,-5,6;7,8,9;1,1,1;2,2,-2"}}};
  std::uint32_t seed = 700;
  for (const Case& c : cases) {
    const KernelSpec& spec = KernelRegistry::builtin().get(c.kernel);
    for (ElemType type : {ElemType::U8, ElemType::F32})
      for (int channels : {1, 4})
        for (int w : {1, 2, 3, 4, 5, 6, 9, 13, 127, 128, 129})
          for (int h : {1, 2, 5, 33}) {
            const ParamSet params = params_for(spec, c, kBorders[seed % std::size(kBorders)], type);
            const Image input = test::random_image(w, h, channels, type, seed);
            for (int b = 0; b < int(std::size(kBlocks)); ++b) check_variants(spec, params, input, b + int(seed));
            ++seed;
            if (HasFailure()) return;
          }
  }
}

// The tiled variant alone on the block shapes that choose its kernels' paths: the lesson with 4 rows per thread
// and the tile in quads (widths that are multiples of 4), a pixel per load (30, 1), one row per thread (a tile
// that would pass 48 KiB: radius 24 on 32x32), its compile-time radii 1..3 and the run-time one, every finishing
// step; the u8 laplacian's register kernel (groups of 32, 16, 8 lanes) and its fallback (12x8, 1x64).
TEST(CudaTiledKernels, LessonRowsQuadsRadiiAndTheLaplacian) {
  KS_REQUIRE_GPU();
  const BlockShape blocks[] = {{32, 8}, {64, 4}, {32, 32}, {12, 8}, {30, 8}, {8, 8}, {16, 16}, {1, 64}, {128, 1}};
  const Case cases[] = {{"box", {"radius=1"}},          {"box", {"radius=2"}},
                        {"box", {"radius=3"}},          {"gaussian", {"sigma=8"}},
                        {"sobel", {"output=magnitude"}}, {"sharpen", {"amount=1.5", "sigma=1"}},
                        {"laplacian", {"neighbours=4"}}, {"laplacian", {"neighbours=8"}}};
  const struct {
    int w, h;
  } sizes[] = {{1, 1}, {2, 3}, {17, 2}, {35, 9}, {261, 67}};
  std::uint32_t seed = 900;
  for (const Case& c : cases) {
    const KernelSpec& spec = KernelRegistry::builtin().get(c.kernel);
    for (ElemType type : {ElemType::U8, ElemType::F32})
      for (int channels : {1, 4})
        for (const auto& size : sizes) {
          const ParamSet params = params_for(spec, c, kBorders[seed % std::size(kBorders)], type);
          const StencilPlan plan = make_stencil_plan(spec.id, params);
          const Image input = test::random_image(size.w, size.h, channels, type, seed++);
          const Image expected = cpu::run_stencil(plan, input, engine().pool());
          for (const BlockShape& block : blocks) {
            SCOPED_TRACE(spec.id + " tiled " + params.get_choice("border") + " " + to_string(type) + " " +
                         std::to_string(channels) + "ch " + std::to_string(size.w) + "x" + std::to_string(size.h) +
                         " block " + to_string(block));
            const cuda::StencilRun run = cuda::run_stencil(engine().cuda(), plan, "tiled", input, block, 0, 1);
            EXPECT_TRUE(test::images_match(run.output, expected, 1e-5));
          }
          if (HasFailure()) return;
        }
  }
}

// The tiled median takes two output rows per step (3x3 u8 walks the tile rows down in registers; 5x5 and 7x7
// select the rows two outputs share once): with 4, 2 or 1 rows per thread (the tile's height within 48 KiB),
// odd image heights whose last row has no partner, and images taller than one block's rows.
TEST(CudaTiledKernels, MedianTwoRowStepsWithFourTwoOrOneRowsPerThread) {
  KS_REQUIRE_GPU();
  // 512 threads at most: the 7x7 kernels' registers leave no room for 1024 (a usage error, tested elsewhere).
  const BlockShape blocks[] = {{32, 8}, {8, 64}, {4, 128}};
  const struct {
    int w, h;
  } sizes[] = {{37, 29}, {9, 301}, {70, 2}};
  std::set<int> rows_seen;
  std::uint32_t seed = 1100;
  for (int radius : {1, 2, 3}) {
    const KernelSpec& spec = KernelRegistry::builtin().get("median");
    const std::string r = "radius=" + std::to_string(radius);
    for (ElemType type : {ElemType::U8, ElemType::F32})
      for (int channels : {1, 4})
        for (const BlockShape& block : blocks) {
          const ParamSet params = params_for(spec, Case{"median", {r.c_str()}}, kBorders[seed % std::size(kBorders)],
                                             type);
          const StencilPlan plan = make_stencil_plan(spec.id, params);
          const TiledDesign design = tiled_design(plan, type, channels, block);
          ASSERT_LE(design.shared_bytes, 48u * 1024u);
          rows_seen.insert(design.cells_y);
          for (const auto& size : sizes) {
            const Image input = test::random_image(size.w, size.h, channels, type, seed++);
            const Image expected = cpu::run_stencil(plan, input, engine().pool(), cpu::CpuPath::Reference);
            SCOPED_TRACE(r + " " + to_string(type) + " " + std::to_string(channels) + "ch " +
                         std::to_string(size.w) + "x" + std::to_string(size.h) + " block " + to_string(block) +
                         " rows per thread " + std::to_string(design.cells_y));
            const cuda::StencilRun run = cuda::run_stencil(engine().cuda(), plan, "tiled", input, block, 0, 1);
            EXPECT_TRUE(test::images_match(run.output, expected, 0));
          }
          if (HasFailure()) return;
        }
  }
  EXPECT_EQ(rows_seen, (std::set<int>{1, 2, 4})) << "the blocks above no longer reach every rows-per-thread path";
}

// Small images through every kernel, variant, type and channel count: the set the GPU check runs under
// compute-sanitizer (memcheck and racecheck), so it has to stay quick.
TEST(CudaSmall, EveryKernelAndVariant) {
  KS_REQUIRE_GPU();
  std::uint32_t seed = 500;
  for (const KernelSpec& spec : KernelRegistry::builtin().kernels()) {
    if (spec.category != "stencil") continue;
    for (ElemType type : {ElemType::U8, ElemType::F32})
      for (int channels : {1, 4}) {
        const ParamSet params = params_for(spec, Case{spec.id.c_str(), {}}, seed % 2 ? "wrap" : "constant", type);
        const Image input = test::random_image(70, 37, channels, type, seed);
        check_variants(spec, params, input, int(seed++));
      }
  }
}

// Small images through what the tiled kernels specialise on that the defaults above miss: the median's 5x5 and
// 7x7 (forgetful selection), convolve's radii up to 7 (window_multi's template) and a rank-1 matrix (separable).
// Also run under compute-sanitizer.
TEST(CudaSmall, TiledSpecialisations) {
  KS_REQUIRE_GPU();
  const std::string m15x15 = random_matrix(15, 15, false, 5), m15x3 = random_matrix(15, 3, false, 6);
  const Case cases[] = {{"median", {"radius=2"}},
                        {"median", {"radius=3"}},
                        {"convolve", {"matrix=1,2,1;2,4,2;1,2,1"}},
                        {"convolve", {"matrix=1,-2,3;-4,5,-6;7,-8,9;1,2,3;0,0,1"}},
                        {"convolve", {m15x15.c_str()}},
                        {"convolve", {m15x3.c_str()}}};
  std::uint32_t seed = 800;
  for (const Case& c : cases) {
    const KernelSpec& spec = KernelRegistry::builtin().get(c.kernel);
    for (ElemType type : {ElemType::U8, ElemType::F32})
      for (int channels : {1, 4}) {
        const ParamSet params = params_for(spec, c, seed % 2 ? "wrap" : "reflect", type);
        const Image input = test::random_image(70, 37, channels, type, seed);
        check_variants(spec, params, input, int(seed++));
      }
  }
}

// Large enough that every block shape needs many blocks and the strip kernel takes several steps per block.
TEST(CudaLarge, SeparableOnALargerImage) {
  KS_REQUIRE_GPU();
  std::uint32_t seed = 900;
  for (const Case& c : {Case{"box", {"radius=1"}}, Case{"gaussian", {"sigma=8"}}, Case{"sobel", {}}}) {
    const KernelSpec& spec = KernelRegistry::builtin().get(c.kernel);
    for (ElemType type : {ElemType::U8, ElemType::F32}) {
      const ParamSet params = params_for(spec, c, "reflect101", type);
      const StencilPlan plan = make_stencil_plan(spec.id, params);
      const Image input = test::random_image(1531, 1289, 1, type, seed++);
      const Image expected = cpu::run_stencil(plan, input, engine().pool(), cpu::CpuPath::Reference);
      for (BlockShape block : {BlockShape{32, 8}, BlockShape{64, 4}}) {
        SCOPED_TRACE(spec.id + " " + to_string(type) + " block " + to_string(block));
        cuda::StencilRun run = cuda::run_stencil(engine().cuda(), plan, "separable", input, block, 1, 2);
        EXPECT_TRUE(test::images_match(run.output, expected, 1e-5));
        EXPECT_EQ(run.kernel_ms.size(), 2u);
      }
    }
  }
}

// The tiled variant's own paths on small images, under compute-sanitizer too (the tests above pick one block per
// variant): the lesson with 4 rows per thread and quad loads (32x8), with pixel loads (30x8), RGBA; the u8
// laplacian's register kernel (32x8, 16x16).
TEST(CudaSmall, TiledPathsOnTheirBlocks) {
  KS_REQUIRE_GPU();
  const Case cases[] = {{"box", {"radius=1"}}, {"box", {"radius=3"}}, {"sobel", {"output=magnitude"}},
                        {"laplacian", {"neighbours=4"}}, {"laplacian", {"neighbours=8"}}};
  std::uint32_t seed = 1000;
  for (const Case& c : cases) {
    const KernelSpec& spec = KernelRegistry::builtin().get(c.kernel);
    for (ElemType type : {ElemType::U8, ElemType::F32})
      for (int channels : {1, 4}) {
        const ParamSet params = params_for(spec, c, seed % 2 ? "wrap" : "constant", type);
        const StencilPlan plan = make_stencil_plan(spec.id, params);
        const Image input = test::random_image(70, 37, channels, type, seed++);
        const Image expected = cpu::run_stencil(plan, input, engine().pool());
        for (const BlockShape& block : {BlockShape{32, 8}, BlockShape{16, 16}, BlockShape{30, 8}}) {
          SCOPED_TRACE(spec.id + " tiled " + to_string(type) + " " + std::to_string(channels) + "ch block " +
                       to_string(block));
          const cuda::StencilRun run = cuda::run_stencil(engine().cuda(), plan, "tiled", input, block, 0, 1);
          EXPECT_TRUE(test::images_match(run.output, expected, 1e-5));
        }
      }
  }
}

}  // namespace
}  // namespace ks
