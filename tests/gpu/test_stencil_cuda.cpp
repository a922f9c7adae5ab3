// Every CUDA variant of every stencil against the CPU reference: u8 bit-exact, f32 within 1e-5 relative, on
// awkward sizes (not multiples of any block), every border mode, 1 and 4 channels, several block shapes.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "stencil/cpu/stencil_cpu.hpp"
#include "stencil/cuda/stencil_cuda.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

struct Case {
  const char* kernel;
  std::vector<const char*> params;
};

std::string case_name(const Case& c) {
  std::string s = c.kernel;
  for (const char* p : c.params) s += std::string("_") + p;
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}

class CudaMatchesCpu : public ::testing::TestWithParam<Case> {
 protected:
  static Engine& engine() {
    static Engine e(Engine::Options{0});
    return e;
  }
};

TEST_P(CudaMatchesCpu, EveryVariantBorderTypeAndSize) {
  KS_REQUIRE_GPU();
  const Case& c = GetParam();
  const KernelSpec& spec = KernelRegistry::builtin().get(c.kernel);
  const struct { int w, h; } sizes[] = {{1, 1}, {3, 5}, {1023, 7}, {4097, 33}};
  const BlockShape blocks[] = {{32, 8}, {16, 16}, {128, 1}, {1, 64}};
  CudaContext& ctx = engine().cuda();
  int seed = 1, checked = 0;
  for (const char* border : {"reflect101", "reflect", "replicate", "wrap", "constant"}) {
    ParamSet params = spec.default_params();
    for (const char* p : c.params) params.set_assignment(p);
    params.set("border", border);
    for (ElemType type : {ElemType::U8, ElemType::F32}) {
      params.set("border_value", type == ElemType::U8 ? "200.6" : "0.75");
      const StencilPlan plan = make_stencil_plan(spec.id, params);
      for (int channels : {1, 4}) {
        for (const auto& size : sizes) {
          const Image input = test::random_image(size.w, size.h, channels, type, std::uint32_t(seed++));
          const Image expected = cpu::run_stencil(plan, input, engine().pool());
          int block_index = 0;
          for (const auto& v : spec.variants) {
            if (v.backend != Backend::Cuda || spec.unavailable_reason(v.name, params)) continue;
            const BlockShape block = blocks[(block_index++ + seed) % 4];
            SCOPED_TRACE(std::string(v.name) + " " + border + " " + to_string(type) + " " +
                         std::to_string(channels) + "ch " + std::to_string(size.w) + "x" +
                         std::to_string(size.h) + " block " + to_string(block));
            cuda::StencilRun run = cuda::run_stencil(ctx, plan, v.name, input, block, 0, 1);
            ASSERT_TRUE(test::images_match(run.output, expected, 1e-5));
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Stencils, CudaMatchesCpu,
    ::testing::Values(Case{"box", {"radius=1"}}, Case{"box", {"radius=4"}}, Case{"gaussian", {"sigma=1.5"}},
                      Case{"gaussian", {"sigma=8"}}, Case{"sobel", {"output=magnitude"}}, Case{"sobel", {"output=dx"}},
                      Case{"sobel", {"output=dy"}}, Case{"laplacian", {"neighbours=4"}},
                      Case{"laplacian", {"neighbours=8"}}, Case{"sharpen", {"amount=1.5", "sigma=1"}},
                      Case{"median", {"radius=1"}}, Case{"median", {"radius=2"}}, Case{"median", {"radius=3"}},
                      Case{"convolve", {"matrix=1,2,1;2,4,2;1,2,1", "normalize=true"}},
                      Case{"convolve", {"matrix=0.1,-0.25,0.3,0.05,0.2"}}),
    [](const ::testing::TestParamInfo<Case>& info) { return case_name(info.param); });

ErrorKind launch_error(CudaContext& ctx, const StencilPlan& plan, const std::string& variant, BlockShape block) {
  try {
    cuda::run_stencil(ctx, plan, variant, test::random_image(64, 64, 1, ElemType::U8, 5), block, 0, 1);
  } catch (const Error& e) {
    return e.kind();
  }
  return ErrorKind::Internal;
}

TEST(CudaLaunch, BlocksTheDeviceCannotRunAreUsageErrors) {
  KS_REQUIRE_GPU();
  Engine engine;
  CudaContext& ctx = engine.cuda();
  const auto& spec = KernelRegistry::builtin().get("box");
  const StencilPlan plan = make_stencil_plan("box", spec.default_params());
  EXPECT_EQ(launch_error(ctx, plan, "tiled", {0, 8}), ErrorKind::Usage);
  EXPECT_EQ(launch_error(ctx, plan, "tiled", {64, 32}), ErrorKind::Usage) << "2048 threads";
  EXPECT_EQ(launch_error(ctx, plan, "naive", {1, 2048}), ErrorKind::Usage);
  ParamSet big = spec.default_params();
  big.set("radius", "50");
  const StencilPlan wide = make_stencil_plan("box", big);
  // 32x32 threads, radius 50: a (32+100) x (128+100) f32 x 4-channel tile is far beyond any GPU's shared memory.
  try {
    cuda::run_stencil(ctx, wide, "separable", test::random_image(64, 64, 4, ElemType::F32, 5), {32, 32}, 0, 1);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("shared memory"), std::string::npos) << e.what();
  }
  try {
    cuda::run_stencil(ctx, plan, "tiled", test::random_image(8, 8, 1, ElemType::U8, 5), {64, 32}, 0, 1);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("2048 threads"), std::string::npos) << e.what();
  }
}

TEST(CudaLaunch, OccupancyAndSuggestionAreSane) {
  KS_REQUIRE_GPU();
  Engine engine;
  CudaContext& ctx = engine.cuda();
  const auto& spec = KernelRegistry::builtin().get("gaussian");
  const StencilPlan plan = make_stencil_plan("gaussian", spec.default_params());
  for (const char* v : {"naive", "tiled", "separable"}) {
    OccupancyReport r = cuda::stencil_occupancy(ctx, plan, v, ElemType::F32, 1, {32, 8});
    EXPECT_GT(r.occupancy, 0) << v;
    EXPECT_LE(r.occupancy, 1) << v;
    EXPECT_GT(r.registers_per_thread, 0) << v;
    EXPECT_FALSE(r.limiter.empty()) << v;
    EXPECT_EQ(r.block_threads, 256);
    BlockShape s = cuda::suggest_block(ctx, plan, v, ElemType::F32, 1);
    EXPECT_GT(s.threads(), 0);
    EXPECT_LE(s.threads(), ctx.device().max_threads_per_block);
  }
}

TEST(CudaDevice, ReportsPropertiesAndCopyBandwidth) {
  KS_REQUIRE_GPU();
  auto devices = list_devices();
  ASSERT_FALSE(devices.empty());
  EXPECT_FALSE(devices[0].name.empty());
  EXPECT_GT(devices[0].sm_count, 0);
  EXPECT_GT(devices[0].total_memory, 0u);
  Engine engine;
  const double bw = engine.cuda().copy_bandwidth_gbps();
  EXPECT_GT(bw, 10.0);
  EXPECT_EQ(engine.cuda().copy_bandwidth_gbps(), bw) << "measured once per context";
}

TEST(CudaEngine, ReportCarriesTimingsAndOccupancy) {
  KS_REQUIRE_GPU();
  Engine engine;
  StencilRequest r;
  r.kernel = "box";
  r.params = KernelRegistry::builtin().get("box").default_params();
  r.backend = Backend::Cuda;
  r.block = BlockShape{32, 8};
  r.repeat = 3;
  const Image in = test::random_image(1000, 700, 1, ElemType::U8, 11);
  StencilResult res = engine.run_stencil(in, r);
  EXPECT_EQ(res.report.variant, "separable");
  EXPECT_EQ(res.report.kernel_time.count, 3);
  EXPECT_GT(res.report.kernel_time.median_ms, 0);
  EXPECT_GT(res.report.upload_ms, 0);
  EXPECT_GT(res.report.download_ms, 0);
  EXPECT_GT(res.report.percent_of_copy, 0);
  ASSERT_TRUE(res.report.occupancy);
  EXPECT_TRUE(test::images_match(res.output, engine.run_stencil(in, [&] {
                                                 StencilRequest c = r;
                                                 c.backend = Backend::Cpu;
                                                 c.variant.clear();
                                                 c.block.reset();
                                                 return c;
                                               }())
                                                 .output));
}

}  // namespace
}  // namespace ks
