// Every CUDA variant of every stencil against the CPU reference: u8 bit-exact, f32 within 1e-5 relative, on
// awkward sizes (not multiples of any block), every border mode, 1 and 4 channels, several block shapes. The
// reference is the CPU's scalar path (f32 sums in double), the oracle the CPU backend's SIMD path is held to
// as well (tests/cpu/test_stencil_cpu_simd.cpp).
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "stencil/cpu/stencil_cpu.hpp"
#include "stencil/cuda/stencil_cuda.hpp"
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
                      Case{"convolve", {"matrix=0.1,-0.25,0.3,0.05,0.2"}}),
    [](const ::testing::TestParamInfo<Case>& info) { return case_name(info.param); });

// Every block shape on every variant, for the kernels whose separable variant has two implementations (3x3
// register kernel / strip kernel): the choice depends on the block, the result must not.
TEST(CudaBlocks, EveryBlockShapeGivesTheSameResult) {
  KS_REQUIRE_GPU();
  const Case cases[] = {{"box", {"radius=1"}}, {"sobel", {"output=magnitude"}}, {"sharpen", {"sigma=0.3"}},
                        {"gaussian", {"sigma=3"}}, {"median", {"radius=1"}}};
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

}  // namespace
}  // namespace ks
