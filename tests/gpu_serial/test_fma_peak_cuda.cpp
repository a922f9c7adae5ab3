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

// The ceilings of the honest roofline (core/cuda/op_peaks.cu): the same chains kernel with an f32 FMA step
// matches the FMA peak's own kernel within 5%, and each integer width (an add and a min per lane) is
// positive, below the 2x-generous lane bound and a u8 lane-op never slower than an i32 one by more than the
// lanes' 4x.
TEST(OpPeaksCuda, IntegerCeilingsArePositiveAndTheF32OneMatchesTheFmaPeak) {
  KS_REQUIRE_GPU();
  auto ctx = CudaContext::create(0);
  const DeviceInfo& d = ctx->device();
  const double fma = ctx->fma_peak_gflops(), f32 = ctx->op_peak_gops(OpKind::F32Fma);
  EXPECT_NEAR(f32, fma, 0.05 * fma) << "op_peaks.cu's f32 step against fma_peak.cu";
  // 2 x 128 lanes per SM per clock x 2 operations (an add and a min) x 4 u8 lanes per 32-bit register.
  const double bound = 2.0 * 128 * 2 * 4 * double(d.sm_count) * double(d.clock_khz) * 1e3 / 1e9;
  for (OpKind k : {OpKind::U8, OpKind::I16, OpKind::I32}) {
    const double gops = ctx->op_peak_gops(k);
    EXPECT_GT(gops, 0.0) << ceiling_name(k);
    EXPECT_TRUE(std::isfinite(gops)) << ceiling_name(k);
    EXPECT_LT(gops, bound) << ceiling_name(k);
    RecordProperty(std::string(op_kind_key(k)) + "_peak_gops", std::to_string(gops));
    std::printf("%s: %s peak %.0f GOP/s (f32 FMA %.0f, op_peaks f32 %.0f)\n", d.name.c_str(),
                std::string(ceiling_name(k)).c_str(), gops, fma, f32);
    EXPECT_EQ(ctx->op_peak_gops(k), gops) << "measured once, then kept";
  }
  Engine engine;
  const ComputePeaks& p = engine.peaks(Backend::Cuda);
  EXPECT_GT(p.u8_gops, 0.0);
  EXPECT_GT(p.i16_gops, 0.0);
  EXPECT_GT(p.i32_gops, 0.0);
}

// A CUDA u8 median run is held against an integer ceiling, not the f32 FMA peak, and stays under its roof.
TEST(OpPeaksCuda, AU8MedianRunIsHeldAgainstItsIntegerCeiling) {
  KS_REQUIRE_GPU();
  Engine engine;
  StencilRequest req;
  req.kernel = "median";
  req.params = KernelRegistry::builtin().get("median").default_params();
  req.backend = Backend::Cuda;
  req.repeat = 10;
  const RunReport r = engine.run_stencil(random_image(4096, 4096, 1, ElemType::U8, 1), req).report;
  EXPECT_EQ(r.roofline.ceiling.name, "u8 integer");
  EXPECT_GT(r.roofline.percent_of_roof, 0.0);
  EXPECT_LE(r.roofline.percent_of_roof, 100.0)
      << r.roofline.gflops << " GOP/s under " << r.roofline.ceiling.gops;
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
