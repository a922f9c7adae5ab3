// The hardware counters make sense (issue 25): kernels whose counters are known in advance (a copy, strided
// loads, shared-memory strides, branches; tests/gpu_kernels/counter_probes.cu) and the built-in stencils read
// through the engine. Skipped without a GPU; a driver that forbids counters is a failure here with its message
// (the GPU machine allows them), not a skip.
#include <gtest/gtest.h>

#if KS_HAVE_CUDA  // the probe kernels are CUDA; a build without CUDA has none of this

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/timing.hpp"
#include "engine/engine.hpp"
#include "gpu_kernels/counter_probes.hpp"
#include "registry/registry.hpp"
#include "support/test_support.hpp"

namespace ks::test {
namespace {

KernelCounters counters_or_fail(const CounterReading& r) {
  if (!r.counters) throw std::runtime_error("no counters: " + r.unavailable);
  return *r.counters;
}

TEST(CountersCuda, ACopyMovesItsBytesAtTheMeasuredCopyBandwidth) {
  KS_REQUIRE_GPU();
  auto ctx = CudaContext::create(0);
  const std::size_t bytes = std::size_t(512) << 20;  // far past the L2 cache
  const KernelCounters c = counters_or_fail(counters_of_copy(*ctx, bytes));
  // Every byte is read once and written once.
  EXPECT_NEAR(c.dram_read_bytes, double(bytes), 0.05 * double(bytes));
  EXPECT_NEAR(c.dram_write_bytes, double(bytes), 0.05 * double(bytes));
  // The rate the counters saw (their bytes over their duration) against the copy bandwidth measured with
  // cudaMemcpy: within 10%.
  const double counted_gbps = c.dram_bytes() / (c.duration_ms * 1e6);
  const double copy_gbps = ctx->copy_bandwidth_gbps();
  EXPECT_NEAR(counted_gbps, copy_gbps, 0.10 * copy_gbps) << "DRAM throughput " << c.dram_throughput_pct << "%";
  EXPECT_GT(c.dram_throughput_pct, 60.0) << "a copy is the most DRAM-bound kernel there is";
  std::printf("copy: %.0f GB/s counted, %.0f GB/s copy bandwidth, DRAM %.1f%% of peak\n", counted_gbps, copy_gbps,
              c.dram_throughput_pct);
}

TEST(CountersCuda, StridedLoadsTakeOneSectorPerLane) {
  KS_REQUIRE_GPU();
  auto ctx = CudaContext::create(0);
  const KernelCounters coalesced = counters_or_fail(counters_of_strided_loads(*ctx, 1));
  const KernelCounters strided = counters_or_fail(counters_of_strided_loads(*ctx, 32));
  // 32 lanes x 4 bytes contiguous = 128 bytes = 4 sectors of 32 bytes; 128 bytes apart, one sector each.
  EXPECT_NEAR(coalesced.load_sectors_per_request(), 4.0, 0.5);
  EXPECT_NEAR(strided.load_sectors_per_request(), 32.0, 1.0);
  EXPECT_NEAR(coalesced.store_sectors_per_request(), 4.0, 0.5);
}

TEST(CountersCuda, SharedMemoryStridesShowBankConflicts) {
  KS_REQUIRE_GPU();
  auto ctx = CudaContext::create(0);
  const KernelCounters clean = counters_or_fail(counters_of_shared_stride(*ctx, 1));
  const KernelCounters conflicted = counters_or_fail(counters_of_shared_stride(*ctx, 32));
  EXPECT_LT(clean.bank_conflicts_per_shared_instruction(), 0.5);
  // All 32 lanes in one bank: each load instruction takes 32 wavefronts, 31 of them conflicts.
  EXPECT_GT(conflicted.bank_conflicts_per_shared_instruction(), 20.0);
  std::printf("bank conflicts per shared instruction: stride 1 %.2f, stride 32 %.2f\n",
              clean.bank_conflicts_per_shared_instruction(), conflicted.bank_conflicts_per_shared_instruction());
}

TEST(CountersCuda, DivergentBranchesHalveTheWarpEfficiency) {
  KS_REQUIRE_GPU();
  auto ctx = CudaContext::create(0);
  const KernelCounters uniform = counters_or_fail(counters_of_branches(*ctx, false));
  const KernelCounters divergent = counters_or_fail(counters_of_branches(*ctx, true));
  EXPECT_GT(uniform.warp_execution_efficiency_pct, 95.0);
  EXPECT_NEAR(divergent.warp_execution_efficiency_pct, 50.0, 8.0);
}

// The naive box filter's default parameters on CUDA, two timed launches: the engine runs below.
StencilRequest naive_box_on_cuda() {
  StencilRequest request;
  request.kernel = "box";
  request.params = KernelRegistry::builtin().get("box").default_params();
  request.backend = Backend::Cuda;
  request.variant = "naive";
  request.repeat = 2;
  return request;
}

// The median wall time of `runs` runs of `request` on `input`, each with its copies (what a user waits for).
double median_stencil_run_ms(Engine& engine, const Image& input, const StencilRequest& request, int runs) {
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    Stopwatch watch;
    engine.run_stencil(input, request);
    ms.push_back(watch.elapsed_ms());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// The engine's runs: counters only when asked, for the variant's launch, no achieved occupancy above the
// theoretical one, the image's bytes through DRAM (larger than the L2 cache), and what a reading costs once the
// profiler is set up (the bound: 50 ms of wall time in the app).
TEST(CountersCuda, EngineRunsCarryCountersWhenAsked) {
  KS_REQUIRE_GPU();
  Engine engine(Engine::Options{});
  const Image input = random_image(8191, 4097, 1, ElemType::F32, 7);  // 134 MB, past the L2 cache
  StencilRequest request = naive_box_on_cuda();
  EXPECT_FALSE(engine.run_stencil(input, request).report.counters) << "counters are off by default";
  Stopwatch plain_watch;
  engine.run_stencil(input, request);
  const double plain_ms = plain_watch.elapsed_ms();
  request.counters = true;
  Stopwatch first_watch;
  const RunReport naive = engine.run_stencil(input, request).report;
  const double first_ms = first_watch.elapsed_ms();
  ASSERT_TRUE(naive.counters) << naive.counters_unavailable;
  EXPECT_EQ(naive.counters->kernel_name, naive.occupancy->kernel_name);
  EXPECT_GT(naive.counters->dram_read_bytes, 0.9 * double(input.shape().byte_size()))
      << "the image must come from DRAM once";
  EXPECT_GT(naive.counters->achieved_occupancy_pct, 0.0);
  EXPECT_LE(naive.counters->achieved_occupancy_pct, 100.0 * naive.occupancy->occupancy + 1.0)
      << "achieved occupancy above the theoretical one";
  Stopwatch second_watch;
  const RunReport again = engine.run_stencil(input, request).report;
  const double second_ms = second_watch.elapsed_ms();
  ASSERT_TRUE(again.counters);
  request.variant = "tiled";
  const RunReport tiled = engine.run_stencil(input, request).report;
  ASSERT_TRUE(tiled.counters) << tiled.counters_unavailable;
  EXPECT_EQ(tiled.counters->kernel_name, tiled.occupancy->kernel_name);
  std::printf("box f32 8191x4097: run %.1f ms without counters, %.1f ms with (first reading, set-up included), "
              "%.1f ms with (second: %d passes, %.1f ms under the profiler, %.1f ms reading in all); sectors per "
              "load request naive %.2f, tiled %.2f\n",
              plain_ms, first_ms, second_ms, again.counters->passes, again.counters->replay_ms,
              again.counters->read_ms, naive.counters->load_sectors_per_request(),
              tiled.counters->load_sectors_per_request());
  RecordProperty("counters_cost_ms", std::to_string(second_ms - plain_ms));
}

// The one-pass set (the app's default): one pass, the same DRAM bytes and occupancy as all the counters read,
// the rest unread; what a reading adds to a run in each set, switching sets back and forth on one context.
TEST(CountersCuda, AOnePassReadingAgreesWithAllAndCostsOnePass) {
  KS_REQUIRE_GPU();
  Engine engine(Engine::Options{});
  const Image input = random_image(8191, 4097, 1, ElemType::F32, 7);  // 134 MB, past the L2 cache
  StencilRequest request = naive_box_on_cuda();
  engine.run_stencil(input, request);  // warm: the context, the module, the copy bandwidth
  auto median_run_ms = [&](int runs) { return median_stencil_run_ms(engine, input, request, runs); };
  const double plain_ms = median_run_ms(5);
  request.counters = true;
  engine.cuda().set_counter_set(CounterSet::All);
  const RunReport all = engine.run_stencil(input, request).report;  // the profiler's set-up is paid here
  ASSERT_TRUE(all.counters) << all.counters_unavailable;
  const double all_ms = median_run_ms(3);
  engine.cuda().set_counter_set(CounterSet::Quick);
  const RunReport quick = engine.run_stencil(input, request).report;
  ASSERT_TRUE(quick.counters) << quick.counters_unavailable;
  const double quick_ms = median_run_ms(5);
  EXPECT_EQ(quick.counters->set, CounterSet::Quick);
  EXPECT_EQ(quick.counters->passes, 1);
  EXPECT_EQ(all.counters->set, CounterSet::All);
  EXPECT_GT(all.counters->passes, 1);
  EXPECT_NEAR(quick.counters->dram_bytes(), all.counters->dram_bytes(), 0.05 * all.counters->dram_bytes());
  EXPECT_NEAR(quick.counters->dram_throughput_pct, all.counters->dram_throughput_pct, 5.0);
  EXPECT_NEAR(quick.counters->achieved_occupancy_pct, all.counters->achieved_occupancy_pct, 5.0);
  EXPECT_NEAR(quick.counters->warp_execution_efficiency_pct, all.counters->warp_execution_efficiency_pct, 1.0);
  EXPECT_TRUE(std::isnan(quick.counters->sm_throughput_pct));
  EXPECT_TRUE(std::isnan(quick.counters->load_sectors_per_request()));
  EXPECT_FALSE(std::isnan(all.counters->load_sectors_per_request()));
  // Back to all after quick: the profiler is configured again.
  engine.cuda().set_counter_set(CounterSet::All);
  const RunReport all_again = engine.run_stencil(input, request).report;
  ASSERT_TRUE(all_again.counters) << all_again.counters_unavailable;
  EXPECT_EQ(all_again.counters->passes, all.counters->passes);
  EXPECT_NEAR(all_again.counters->sm_throughput_pct, all.counters->sm_throughput_pct, 5.0);
  std::printf("box f32 naive 8191x4097, medians: run %.1f ms without counters, %.1f ms with all (%d passes, "
              "reading %.1f ms), %.1f ms with one pass (reading %.1f ms): the reading adds %.1f ms and %.1f ms\n",
              plain_ms, all_ms, all.counters->passes, all_again.counters->read_ms, quick_ms, quick.counters->read_ms,
              all_ms - plain_ms, quick_ms - plain_ms);
  RecordProperty("quick_counters_cost_ms", std::to_string(quick_ms - plain_ms));
  // A reading alone, on the copy probe (one kernel, 512 MiB), in each set, once the profiler is configured: the
  // wall time of read_counters against the time under the profiler.
  for (const CounterSet set : {CounterSet::Quick, CounterSet::All}) {
    engine.cuda().set_counter_set(set);
    counters_or_fail(counters_of_copy(engine.cuda(), std::size_t(512) << 20));  // configures for the set
    for (int i = 0; i < 3; ++i) {
      Stopwatch watch;
      const KernelCounters c = counters_or_fail(counters_of_copy(engine.cuda(), std::size_t(512) << 20));
      std::printf("copy probe, %s counters: read_counters %.1f ms in all, %.1f ms reading (%.1f under the profiler, "
                  "%d pass%s)\n",
                  to_string(set), watch.elapsed_ms(), c.read_ms, c.replay_ms, c.passes, c.passes == 1 ? "" : "es");
    }
  }
  RecordProperty("all_counters_cost_ms", std::to_string(all_ms - plain_ms));
}

// A variant of two kernels (the separable box: a row pass, then a column pass): one pass still covers both, as
// user replay runs the work once with a range per kernel. What the one-pass reading adds to such a run.
TEST(CountersCuda, AOnePassReadingOfATwoKernelVariantIsOnePass) {
  KS_REQUIRE_GPU();
  Engine engine(Engine::Options{});
  const Image input = random_image(8191, 4097, 1, ElemType::F32, 11);
  StencilRequest request = naive_box_on_cuda();
  request.variant = "separable";
  engine.run_stencil(input, request);  // warm
  auto median_run_ms = [&](int runs) { return median_stencil_run_ms(engine, input, request, runs); };
  const double plain_ms = median_run_ms(5);
  request.counters = true;
  engine.cuda().set_counter_set(CounterSet::Quick);
  const RunReport quick = engine.run_stencil(input, request).report;  // the profiler's set-up is paid here
  ASSERT_TRUE(quick.counters) << quick.counters_unavailable;
  EXPECT_EQ(quick.counters->passes, 1);
  // Both kernels' DRAM bytes: at least the image read and written once (134 MB each way).
  EXPECT_GT(quick.counters->dram_bytes(), 2.0 * 8191 * 4097 * 4 * 0.9);
  const double quick_ms = median_run_ms(5);
  std::printf("box f32 separable 8191x4097 (%s), medians: run %.1f ms without counters, %.1f ms with one pass "
              "(reading %.1f ms): the reading adds %.1f ms\n",
              quick.counters->kernel_name.c_str(), plain_ms, quick_ms, quick.counters->read_ms, quick_ms - plain_ms);
  RecordProperty("quick_counters_cost_two_kernels_ms", std::to_string(quick_ms - plain_ms));
}

}  // namespace
}  // namespace ks::test

#endif  // KS_HAVE_CUDA
