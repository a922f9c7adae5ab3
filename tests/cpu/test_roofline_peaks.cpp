// The roof and a run's place under it: attainable_gflops on both sides of the ridge, the figures a report
// carries, and the CPU backend's measured peaks.
#include <gtest/gtest.h>

#include <cmath>

#include "core/cpu_fma_loop.hpp"
#include "core/peaks.hpp"
#include "engine/engine.hpp"
#include "registry/registry.hpp"

namespace ks::test {
namespace {

const ComputePeaks kPeaks{100.0, 1000.0, "test"};  // ridge at 10 operations per byte

// The CPU peak's loop does the work it is counted for: twelve chains x = 0.999 x + 0.001 per lane, each
// started at seed + 0.001 k, summed over the chains and the lanes. The sum here is computed in double from the
// same recurrence; float rounding (fused or not, as the target does it) stays far below the tolerance.
TEST(CpuFmaLoop, ComputesTheChainsItCounts) {
  const CpuFmaLoop loop = cpu_fma_loop();
  const long long lanes = loop.fmas_per_iteration / 12;
  ASSERT_EQ(loop.fmas_per_iteration % 12, 0);
  EXPECT_TRUE(lanes == 1 || lanes == 4 || lanes == 8 || lanes == 16) << lanes << " lanes";
  for (long long iterations : {0LL, 1LL, 7LL, 1000LL}) {
    double want = 0;
    for (int k = 0; k < 12; ++k) {
      double x = double(1.5f + 0.001f * float(k));
      for (long long i = 0; i < iterations; ++i) x = x * double(0.999f) + double(0.001f);
      want += x * double(lanes);
    }
    EXPECT_NEAR(loop.run(iterations, 1.5f), want, 1e-4 * want) << iterations << " iterations";
  }
}

TEST(Roofline, AttainableFollowsTheMemorySlopeBelowTheRidge) {
  EXPECT_DOUBLE_EQ(attainable_gflops(kPeaks, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(attainable_gflops(kPeaks, 0.25), 25.0);
  EXPECT_DOUBLE_EQ(attainable_gflops(kPeaks, 9.0), 900.0);
  EXPECT_DOUBLE_EQ(ridge_intensity(kPeaks), 10.0);
}

TEST(Roofline, AttainableIsTheComputeCeilingAboveTheRidge) {
  EXPECT_DOUBLE_EQ(attainable_gflops(kPeaks, 10.0), 1000.0);
  EXPECT_DOUBLE_EQ(attainable_gflops(kPeaks, 11.0), 1000.0);
  EXPECT_DOUBLE_EQ(attainable_gflops(kPeaks, 1e6), 1000.0);
}

TEST(Roofline, FiguresOfARunComeFromItsCostModelAndTime) {
  // 2e9 operations over 1e9 bytes in 40 ms: 50 GFLOP/s, 25 GB/s, intensity 2, roof 200 GFLOP/s there.
  const RooflineFigures f = roofline_figures(2'000'000'000, 1'000'000'000, 40.0, kPeaks);
  EXPECT_DOUBLE_EQ(f.intensity, 2.0);
  EXPECT_DOUBLE_EQ(f.gflops, 50.0);
  EXPECT_DOUBLE_EQ(f.gbps, 25.0);
  EXPECT_DOUBLE_EQ(f.attainable_gflops, 200.0);
  EXPECT_DOUBLE_EQ(f.percent_of_roof, 25.0);
  EXPECT_EQ(f.peaks.where, "test");
}

TEST(Roofline, ARunWithoutOperationsIsMeasuredAgainstTheBandwidth) {
  const RooflineFigures f = roofline_figures(0, 1'000'000'000, 20.0, kPeaks);  // 50 GB/s of 100
  EXPECT_DOUBLE_EQ(f.intensity, 0.0);
  EXPECT_DOUBLE_EQ(f.gflops, 0.0);
  EXPECT_DOUBLE_EQ(f.percent_of_roof, 50.0);
}

TEST(Roofline, NoTimeOrNoPeaksGiveZerosNotNaN) {
  const RooflineFigures untimed = roofline_figures(100, 100, 0.0, kPeaks);
  EXPECT_EQ(untimed.gflops, 0.0);
  EXPECT_EQ(untimed.percent_of_roof, 0.0);
  const RooflineFigures no_peaks = roofline_figures(100, 100, 1.0, ComputePeaks{});
  EXPECT_EQ(no_peaks.attainable_gflops, 0.0);
  EXPECT_EQ(no_peaks.percent_of_roof, 0.0);
  EXPECT_TRUE(std::isfinite(no_peaks.gflops));
}

TEST(CpuPeaks, ArePositiveFiniteAndMeasuredOncePerEngine) {
  Engine engine(Engine::Options{2});
  const ComputePeaks& p = engine.peaks(Backend::Cpu);
  EXPECT_GT(p.fma_gflops, 0.0);
  EXPECT_GT(p.memory_gbps, 0.0);
  EXPECT_TRUE(std::isfinite(p.fma_gflops));
  EXPECT_TRUE(std::isfinite(p.memory_gbps));
  // Two threads of any CPU of this decade: more than 0.1 GFLOP/s and 0.1 GB/s, less than 10 TFLOP/s and
  // 10 TB/s (a wrong operation count or unit would be off by orders of magnitude).
  EXPECT_GT(p.fma_gflops, 0.1);
  EXPECT_LT(p.fma_gflops, 1e4);
  EXPECT_GT(p.memory_gbps, 0.1);
  EXPECT_LT(p.memory_gbps, 1e4);
  EXPECT_EQ(p.where, "CPU (2 threads)");
  const ComputePeaks& again = engine.peaks(Backend::Cpu);
  EXPECT_EQ(&again, &p);
  EXPECT_EQ(again.fma_gflops, p.fma_gflops);
}

TEST(CpuPeaks, AStencilRunCarriesThemInItsReport) {
  Engine engine(Engine::Options{2});
  StencilRequest req;
  req.kernel = "box";
  req.params = KernelRegistry::builtin().get("box").default_params();
  req.repeat = 2;
  Image input(64, 32, 1, ElemType::U8);
  const RunReport r = engine.run_stencil(input, req).report;
  const ComputePeaks& p = engine.peaks(Backend::Cpu);
  EXPECT_EQ(r.roofline.peaks.fma_gflops, p.fma_gflops);
  EXPECT_EQ(r.roofline.peaks.memory_gbps, p.memory_gbps);
  ASSERT_GT(r.cost.bytes, 0u);
  EXPECT_DOUBLE_EQ(r.roofline.intensity, double(r.cost.operations) / double(r.cost.bytes));
  EXPECT_DOUBLE_EQ(r.roofline.gbps, r.gbps);
  EXPECT_DOUBLE_EQ(r.roofline.gflops, double(r.cost.operations) / (r.kernel_time.median_ms * 1e6));
}

}  // namespace
}  // namespace ks::test
