// The GPU's roof: the measured f32 FMA peak is positive and below what the SMs can issue at their peak clock,
// the engine hands it out with the copy bandwidth, and a CUDA run's report carries both.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "support/test_support.hpp"

namespace ks::test {
namespace {

TEST(FmaPeakCuda, IsPositiveAndBelowTheTheoreticalBound) {
  KS_REQUIRE_GPU();
  auto ctx = CudaContext::create(0);
  const DeviceInfo& d = ctx->device();
  ASSERT_GT(d.sm_count, 0);
  ASSERT_GT(d.clock_khz, 0) << "cudaDevAttrClockRate gave nothing";
  const double peak = ctx->fma_peak_gflops();
  // The bound: an SM of Volta .. Hopper has 128 FP32 lanes (4 partitions x 32; an H100 SXM: 132 SMs x 128 x
  // 2 operations x 1.98 GHz = 66.9 TFLOP/s). Generous by 2x in lanes so that a future SM with twice the FP32
  // lanes does not fail the test: 2 x 128 FMA lanes per SM per clock x 2 operations per FMA x SMs x clock.
  const double bound_gflops = 2.0 * 128 * 2 * double(d.sm_count) * double(d.clock_khz) * 1e3 / 1e9;
  EXPECT_GT(peak, 0.0);
  EXPECT_TRUE(std::isfinite(peak));
  EXPECT_LT(peak, bound_gflops) << d.name << ": " << d.sm_count << " SMs at " << d.clock_khz << " kHz";
  // And not absurdly low: a tenth of one lane-set per SM at that clock would mean the kernel is broken (most
  // of its FMAs folded, or a launch covering a few SMs).
  EXPECT_GT(peak, bound_gflops / 4 / 10) << "the FMA kernel reaches far less than the SMs can issue";
  RecordProperty("fma_peak_gflops", std::to_string(peak));
  std::printf("%s: FMA peak %.0f GFLOP/s (bound %.0f)\n", d.name.c_str(), peak, bound_gflops);
  EXPECT_EQ(ctx->fma_peak_gflops(), peak) << "measured once, then kept";
}

TEST(FmaPeakCuda, EnginePeaksAndCudaRunReports) {
  KS_REQUIRE_GPU();
  Engine engine;
  const ComputePeaks& p = engine.peaks(Backend::Cuda);
  EXPECT_EQ(p.where, engine.cuda().device().name);
  EXPECT_EQ(p.memory_gbps, engine.cuda().copy_bandwidth_gbps());
  EXPECT_EQ(p.fma_gflops, engine.cuda().fma_peak_gflops());
  StencilRequest req;
  req.kernel = "box";
  req.params = KernelRegistry::builtin().get("box").default_params();
  req.backend = Backend::Cuda;
  req.repeat = 3;
  const RunReport r = engine.run_stencil(random_image(256, 128, 1, ElemType::U8, 1), req).report;
  EXPECT_EQ(r.roofline.peaks.fma_gflops, p.fma_gflops);
  EXPECT_DOUBLE_EQ(r.roofline.intensity, double(r.cost.operations) / double(r.cost.bytes));
  EXPECT_GT(r.roofline.percent_of_roof, 0.0);
}

}  // namespace
}  // namespace ks::test
