// The honest roofline (issue 25, item 4): each kind of operation is held against its own ceiling, the compute
// ceiling of a mix is the time-weighted one, the memory ceiling follows the run's footprint, the stencils
// count their operations by kind, and no CPU stencil run lands above 100% of its own roof.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "core/cpu_int_loop.hpp"
#include "core/cpu_peaks.hpp"
#include "core/peaks.hpp"
#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "support/test_support.hpp"

namespace ks::test {
namespace {

ComputePeaks test_peaks() {
  ComputePeaks p{10.0, 100.0, "test"};
  p.u8_gops = 400;
  p.i16_gops = 200;
  p.i32_gops = 100;
  p.cached_copies = {{1 << 20, 50.0}, {4 << 20, 30.0}};
  p.memory_footprint_bytes = 256 << 20;
  return p;
}

TEST(RooflineCeilings, EachKindHasItsOwn) {
  const ComputePeaks p = test_peaks();
  EXPECT_DOUBLE_EQ(kind_ceiling_gops(p, OpKind::F32Fma), 100.0);
  EXPECT_DOUBLE_EQ(kind_ceiling_gops(p, OpKind::F32One), 50.0);  // one operation per FMA slot
  EXPECT_DOUBLE_EQ(kind_ceiling_gops(p, OpKind::U8), 400.0);
  EXPECT_DOUBLE_EQ(kind_ceiling_gops(p, OpKind::I16), 200.0);
  EXPECT_DOUBLE_EQ(kind_ceiling_gops(p, OpKind::I32), 100.0);
  ComputePeaks gpu_like = p;  // u8 lanes slower than 16-bit pairs: u8 work may run in the pairs
  gpu_like.u8_gops = 150;
  EXPECT_DOUBLE_EQ(kind_ceiling_gops(gpu_like, OpKind::U8), 200.0);
}

TEST(RooflineCeilings, AMixIsBoundByTheSumOfItsKindsTimes) {
  const ComputePeaks p = test_peaks();
  const ComputeCeiling single = compute_ceiling(p, OpMix::of(OpKind::U8, 1e9));
  EXPECT_DOUBLE_EQ(single.gops, 400.0);
  EXPECT_EQ(single.name, "u8 integer");
  // 50 FMA operations take 0.5 time units at 100, 100 u8 operations 0.25 at 400: 150 in 0.75 = 200.
  const ComputeCeiling mixed = compute_ceiling(p, OpMix{}.add(OpKind::F32Fma, 50).add(OpKind::U8, 100));
  EXPECT_DOUBLE_EQ(mixed.gops, 200.0);
  EXPECT_EQ(mixed.name, "f32 FMA 67% + u8 integer 33%");
  EXPECT_EQ(compute_ceiling(p, OpMix{}).gops, 0.0);
  ComputePeaks no_int{10.0, 100.0, "old"};
  EXPECT_EQ(compute_ceiling(no_int, OpMix::of(OpKind::I32, 5)).gops, 0.0)
      << "an unmeasured kind has no ceiling";
}

TEST(RooflineCeilings, TheMemoryCeilingFollowsTheFootprint) {
  const ComputePeaks p = test_peaks();
  EXPECT_EQ(memory_ceiling(p, 512 << 10).gbps, 50.0);  // below every footprint: the smallest
  EXPECT_EQ(memory_ceiling(p, 512 << 10).name, "copy of 1 MiB (cached)");
  EXPECT_EQ(memory_ceiling(p, 3 << 20).gbps, 50.0);  // a 3 MiB run is bounded by the 1 MiB copy
  EXPECT_EQ(memory_ceiling(p, 4 << 20).gbps, 30.0);
  EXPECT_EQ(memory_ceiling(p, 100 << 20).gbps, 30.0);
  EXPECT_EQ(memory_ceiling(p, 256 << 20).gbps, 10.0);  // past the caches: the main copy
  EXPECT_EQ(memory_ceiling(p, 256 << 20).name, "copy");
  EXPECT_EQ(memory_ceiling(ComputePeaks{10.0, 100.0, "no caches"}, 1000).gbps, 10.0);
}

TEST(RooflineCeilings, FiguresUseTheRunsOwnRoof) {
  const ComputePeaks p = test_peaks();
  // 4e9 u8 operations over 1e8 bytes (footprint past 4 MiB: 30 GB/s) in 20 ms: 200 GOP/s at intensity 40,
  // where the roof is min(400, 40 x 30) = 400: 50%. Against the f32 FMA peak it would have been 200%.
  const RooflineFigures f = roofline_figures(OpMix::of(OpKind::U8, 4e9), 100'000'000, 20.0, p);
  EXPECT_DOUBLE_EQ(f.gflops, 200.0);
  EXPECT_DOUBLE_EQ(f.attainable_gflops, 400.0);
  EXPECT_DOUBLE_EQ(f.percent_of_roof, 50.0);
  EXPECT_EQ(f.ceiling.name, "u8 integer");
  EXPECT_EQ(f.memory.gbps, 30.0);
  EXPECT_DOUBLE_EQ(roofline_figures(4'000'000'000, 100'000'000, 20.0, p).percent_of_roof, 200.0);
}

TEST(CpuIntLoop, CountsItsLanes) {
  for (OpKind k : {OpKind::U8, OpKind::I16, OpKind::I32}) {
    const CpuIntLoop loop = cpu_int_loop(k);
    const long long bytes_per_lane = k == OpKind::U8 ? 1 : k == OpKind::I16 ? 2 : 4;
    // 12 chains x (add + min) x lanes; a vector is 16 to 64 bytes on x86 (SSE to AVX-512), 8 on a scalar
    // target.
    const long long lanes = loop.operations_per_iteration / (2 * kCpuIntChains);
    EXPECT_EQ(loop.operations_per_iteration % (2 * kCpuIntChains), 0);
    EXPECT_TRUE(lanes * bytes_per_lane >= 8 && lanes * bytes_per_lane <= 256) << lanes << " lanes";
    EXPECT_EQ(loop.run(1000, 3), loop.run(1000, 3)) << "a digest of deterministic work";
  }
  EXPECT_THROW(cpu_int_loop(OpKind::F32Fma), std::logic_error);
}

TEST(CpuPeaks, IntegerCeilingsAreMeasuredAtTheirVectorWidth) {
  ThreadPool pool(2);
  const double fma = measure_cpu_fma_gflops(pool), u8 = measure_cpu_int_gops(pool, OpKind::U8),
               i32 = measure_cpu_int_gops(pool, OpKind::I32);
  ASSERT_GT(fma, 0.1);
  // A u8 vector holds four times the lanes of an i32 one, and integer adds and mins issue at least as often
  // as FMAs on every x86 core since Haswell (an i32 lane-op against an FMA's 2 operations: above a quarter).
  EXPECT_GT(u8, i32 * 1.5) << "u8 " << u8 << " i32 " << i32;
  EXPECT_GT(i32, fma / 4) << "i32 " << i32 << " fma " << fma;
  EXPECT_LT(u8, 1e5);
}

TEST(StencilCost, CountsOperationsByKind) {
  const KernelRegistry& reg = KernelRegistry::builtin();
  const ImageShape u8{64, 48, 1, ElemType::U8}, f32{64, 48, 1, ElemType::F32};
  const double n = 64.0 * 48;
  const KernelSpec& box = reg.get("box");
  // 3x3 box, separable: 3 + 3 taps, a multiply and an add each; u8 sums up to 9 x 255 fit 16 bits.
  EXPECT_EQ(box.cost(u8, box.default_params()).mix[OpKind::I16], 12 * n);
  EXPECT_EQ(box.cost(f32, box.default_params()).mix[OpKind::F32Fma], 12 * n);
  EXPECT_EQ(box.cost(u8, box.default_params()).operations, std::uint64_t(12 * n));
  // The 3x3 median: 15 compare-exchanges (a min and a max each) per window on u8 lanes, f32 operations on
  // f32.
  const KernelSpec& median = reg.get("median");
  EXPECT_EQ(median.cost(u8, median.default_params()).mix[OpKind::U8], 30 * n);
  EXPECT_EQ(median.cost(f32, median.default_params()).mix[OpKind::F32One], 30 * n);
  EXPECT_EQ(median.cost(u8, median.default_params()).mix[OpKind::F32Fma], 0.0);
  // Gaussian sigma 2 (radius 6): the u8 weights' 11-bit fixed point sums past 16 bits, so 32-bit lanes.
  const KernelSpec& gaussian = reg.get("gaussian");
  EXPECT_EQ(gaussian.cost(u8, gaussian.default_params()).mix[OpKind::I32], 2 * 26 * n);
  EXPECT_EQ(gaussian.cost(u8, gaussian.default_params()).mix[OpKind::I16], 0.0);
}

// The rule: no run above 100% of its own roof. Every stencil, u8 and f32, 1 and 4 channels, at 512^2
// and 1024^2, on the CPU backend with its measured ceilings.
TEST(HonestRoofline, NoCpuStencilRunIsAboveItsRoof) {
  Engine engine(Engine::Options{2});
  const KernelRegistry& reg = KernelRegistry::builtin();
  int runs = 0;
  for (const KernelSpec& k : reg.kernels()) {
    if (k.category != "stencil") continue;
    const KernelSpec* spec = &k;
    for (int size : {512, 1024})
      for (ElemType type : {ElemType::U8, ElemType::F32})
        for (int channels : {1, 4}) {
          StencilRequest req;
          req.kernel = spec->id;
          req.params = spec->default_params();
          req.repeat = 5;
          const RunReport r = engine.run_stencil(random_image(size, size, channels, type, 7), req).report;
          const RooflineFigures& f = r.roofline;
          SCOPED_TRACE(spec->id + " " + std::string(to_string(type)) + " " + std::to_string(channels) +
                       "ch " + std::to_string(size) + ": " + f.ceiling.name + " " +
                       std::to_string(f.ceiling.gops) + " GOP/s, " + f.memory.name + " " +
                       std::to_string(f.memory.gbps) + " GB/s");
          EXPECT_GT(f.percent_of_roof, 0.0);
          EXPECT_LE(f.percent_of_roof, 100.0) << f.gflops << " GOP/s, " << f.gbps << " GB/s";
          EXPECT_FALSE(f.ceiling.name.empty());
          std::printf("%-10s %-3s %dch %4d: %6.1f%% of %s / %s\n", spec->id.c_str(), to_string(type),
                      channels, size, f.percent_of_roof, f.ceiling.name.c_str(), f.memory.name.c_str());
          ++runs;
        }
  }
  EXPECT_EQ(runs, 7 * 8);
}

}  // namespace
}  // namespace ks::test
