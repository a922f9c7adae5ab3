// Launch validation (blocks the device or kernel cannot run are usage errors that say why), occupancy reports,
// block suggestions, device discovery, the copy bandwidth, and the engine's CUDA path.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "stencil/cuda/stencil_cuda.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

Engine& engine() {
  static Engine e(Engine::Options{0});
  return e;
}

StencilPlan plan_of(const std::string& kernel, std::vector<std::string> assignments = {}) {
  ParamSet p = KernelRegistry::builtin().get(kernel).default_params();
  for (const auto& a : assignments) p.set_assignment(a);
  return make_stencil_plan(kernel, p);
}

// The error of a run, or Internal when it ran.
Error run_error(const StencilPlan& plan, const std::string& variant, BlockShape block, int channels = 1,
                ElemType type = ElemType::U8) {
  try {
    cuda::run_stencil(engine().cuda(), plan, variant, test::random_image(64, 64, channels, type, 5), block, 0, 1);
  } catch (const Error& e) {
    return e;
  }
  return Error(ErrorKind::Internal, "it ran");
}

TEST(CudaLaunch, BlocksTheDeviceCannotRunAreUsageErrors) {
  KS_REQUIRE_GPU();
  const StencilPlan box = plan_of("box");
  for (const char* variant : {"naive", "tiled", "separable"}) {
    SCOPED_TRACE(variant);
    EXPECT_EQ(run_error(box, variant, {0, 8}).kind(), ErrorKind::Usage);
    const Error e = run_error(box, variant, {64, 32});
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("2048 threads"), std::string::npos) << e.what();
    EXPECT_EQ(run_error(box, variant, {1, 2048}).kind(), ErrorKind::Usage);
    EXPECT_EQ(run_error(box, variant, {2048, 1}).kind(), ErrorKind::Usage);
  }
  // A (32+100) x (32+100) tile of 16-byte pixels: far beyond any GPU's shared memory per block.
  const Error e = run_error(plan_of("box", {"radius=50"}), "tiled", {32, 32}, 4, ElemType::F32);
  EXPECT_EQ(e.kind(), ErrorKind::Usage);
  EXPECT_NE(std::string(e.what()).find("shared memory"), std::string::npos) << e.what();
  EXPECT_FALSE(e.hint().empty());
}

TEST(CudaLaunch, VariantsThatDoNotApplyAreUsageErrors) {
  KS_REQUIRE_GPU();
  const Error e = run_error(plan_of("laplacian"), "separable", {32, 8});
  EXPECT_EQ(e.kind(), ErrorKind::Usage);
  EXPECT_NE(std::string(e.what()).find("separable"), std::string::npos) << e.what();
  EXPECT_EQ(run_error(plan_of("median"), "separable", {32, 8}).kind(), ErrorKind::Usage);
  EXPECT_EQ(run_error(plan_of("box"), "fancy", {32, 8}).kind(), ErrorKind::Usage);
  EXPECT_EQ(run_error(plan_of("box"), "naive", {32, 8}, 3).kind(), ErrorKind::Usage) << "3 channels";
  EXPECT_EQ(run_error(plan_of("box"), "naive", {32, 8}, 1, ElemType::U16).kind(), ErrorKind::Usage);
  try {
    cuda::run_stencil(engine().cuda(), plan_of("box"), "naive", test::random_image(8, 8, 1, ElemType::U8, 1),
                      {32, 8}, 0, 0);
    FAIL() << "no error for 0 timed runs";
  } catch (const Error& err) {
    EXPECT_EQ(err.kind(), ErrorKind::Usage);
  }
}

TEST(CudaLaunch, OccupancyAndSuggestionAreSane) {
  KS_REQUIRE_GPU();
  CudaContext& ctx = engine().cuda();
  for (const char* kernel : {"gaussian", "box", "median"}) {
    const StencilPlan plan = plan_of(kernel);
    for (const char* v : {"naive", "tiled", "separable"}) {
      if (std::string(kernel) == "median" && std::string(v) == "separable") continue;
      for (ElemType type : {ElemType::U8, ElemType::F32}) {
        SCOPED_TRACE(std::string(kernel) + " " + v + " " + to_string(type));
        const OccupancyReport r = cuda::stencil_occupancy(ctx, plan, v, type, 1, {32, 8});
        EXPECT_FALSE(r.kernel_name.empty());
        EXPECT_GT(r.occupancy, 0);
        EXPECT_LE(r.occupancy, 1);
        EXPECT_GT(r.active_blocks_per_sm, 0);
        EXPECT_GT(r.registers_per_thread, 0);
        EXPECT_EQ(r.block_threads, 256);
        EXPECT_TRUE(r.limiter == "warps" || r.limiter == "registers" || r.limiter == "shared memory" ||
                    r.limiter == "blocks per SM")
            << r.limiter;
        const BlockShape s = cuda::suggest_block(ctx, plan, v, type, 4);
        EXPECT_GT(s.threads(), 0);
        EXPECT_LE(s.threads(), ctx.device().max_threads_per_block);
        EXPECT_NO_THROW(cuda::stencil_occupancy(ctx, plan, v, type, 4, s)) << to_string(s);
      }
    }
  }
}

TEST(CudaDevice, ReportsPropertiesAndCopyBandwidth) {
  KS_REQUIRE_GPU();
  const auto devices = list_devices();
  ASSERT_FALSE(devices.empty());
  EXPECT_FALSE(devices[0].name.empty());
  EXPECT_GT(devices[0].sm_count, 0);
  EXPECT_GT(devices[0].total_memory, 0u);
  EXPECT_GE(devices[0].max_threads_per_block, 256);
  EXPECT_GT(devices[0].shared_memory_per_block_optin, 0u);
  EXPECT_TRUE(no_device_reason().empty());
  EXPECT_EQ(cuda_version_text(13000), "13.0");
  EXPECT_EQ(cuda_version_text(12040), "12.4");
  const double bw = engine().cuda().copy_bandwidth_gbps();
  EXPECT_GT(bw, 10.0);
  EXPECT_EQ(engine().cuda().copy_bandwidth_gbps(), bw) << "measured once per context";
}

TEST(CudaEngine, ReportCarriesTimingsAndOccupancy) {
  KS_REQUIRE_GPU();
  StencilRequest r;
  r.kernel = "box";
  r.params = KernelRegistry::builtin().get("box").default_params();
  r.backend = Backend::Cuda;
  r.block = BlockShape{32, 8};
  r.repeat = 3;
  const Image in = test::random_image(1000, 700, 1, ElemType::U8, 11);
  const StencilResult res = engine().run_stencil(in, r);
  EXPECT_EQ(res.report.variant, "separable");
  EXPECT_EQ(res.report.kernel_time.count, 3);
  EXPECT_GT(res.report.kernel_time.median_ms, 0);
  EXPECT_GT(res.report.upload_ms, 0);
  EXPECT_GT(res.report.download_ms, 0);
  EXPECT_GT(res.report.percent_of_copy, 0);
  ASSERT_TRUE(res.report.occupancy);
  StencilRequest cpu = r;
  cpu.backend = Backend::Cpu;
  cpu.variant.clear();
  cpu.block.reset();
  EXPECT_TRUE(test::images_match(res.output, engine().run_stencil(in, cpu).output));
}

}  // namespace
}  // namespace ks
