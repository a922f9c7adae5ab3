// The topology sweep on several CUDA workers: two workers (own contexts and streams) on one device, and two devices,
// each against one worker, bit for bit, and against the CPU backend. Skips without a device (the second test
// without two).
#include <gtest/gtest.h>

#include "support/test_support.hpp"
#include "support/topo_compare.hpp"
#include "support/topo_instances.hpp"
#include "topo/evaluation.hpp"
#include "topo/permutation.hpp"

namespace ks::topo {
namespace {

Problem random_problem(int n, int timestamps, int configs, std::uint32_t seed, bool integer) {
  std::vector<Configuration> cs;
  for (int c = 0; c < configs; ++c) cs.push_back(test::random_costs(n, seed * 7 + std::uint32_t(c), integer));
  return make_problem(test::random_traffic(n, timestamps, seed, integer), cs);
}

EvalRequest uneven_request(const Problem& p) {
  EvalRequest r;
  r.backend = Backend::Cuda;
  r.top_k = 11;
  r.range_begin = 12345;
  r.range_end = factorial(p.n) - 777;
  r.batch_evaluations = 40000 * p.pairs();  // a few dozen chunks of uneven ends
  return r;
}

void compare_on(const std::vector<CudaContext*>& many) {
  static ThreadPool pool(0);
  for (bool integer : {true, false}) {
    SCOPED_TRACE(integer ? "exact" : "real");
    const Problem p = random_problem(9, 2, 2, 5, integer);
    const EvalRequest r = uneven_request(p);
    SweepSetup one, all;
    one.gpu_workers = {many.front()};
    all.gpu_workers = many;
    const EvalResult a = evaluate(p, r, {}, one), b = evaluate(p, r, {}, all);
    test::expect_identical(b, a);
    ASSERT_EQ(b.timing.workers.size(), many.size());
    for (const auto& w : b.timing.workers) EXPECT_GT(w.chunks, 0u) << w.name;
    // And the CPU: the same minima, placements, histograms and top list (real-valued means differ in the order
    // of their sums, within rounding).
    EvalRequest cpu = r;
    cpu.backend = Backend::Cpu;
    const EvalResult c = evaluate(p, cpu, {}, pool, nullptr);
    for (std::size_t k = 0; k < c.slices.size(); ++k) {
      EXPECT_EQ(b.slices[k].min.value, c.slices[k].min.value);
      EXPECT_EQ(b.slices[k].argmin, c.slices[k].argmin);
      EXPECT_EQ(b.slices[k].histogram->counts, c.slices[k].histogram->counts);
      EXPECT_NEAR(b.slices[k].mean, c.slices[k].mean, 1e-12 * std::fabs(c.slices[k].mean));
    }
    ASSERT_EQ(b.top.size(), c.top.size());
    for (std::size_t i = 0; i < c.top.size(); ++i) EXPECT_EQ(b.top[i].index, c.top[i].index);
  }
}

TEST(TopoMultiGpu, TwoWorkersOnOneDeviceGiveTheBitsOfOne) {
  KS_REQUIRE_GPU();
  auto a = CudaContext::create(0), b = CudaContext::create(0);
  compare_on({a.get(), b.get()});
}

TEST(TopoMultiGpu, TwoDevicesGiveTheBitsOfOne) {
  KS_REQUIRE_GPU();
  if (list_devices().size() < 2) GTEST_SKIP() << "fewer than 2 CUDA devices";
  auto a = CudaContext::create(0), b = CudaContext::create(1);
  compare_on({a.get(), b.get()});
}

// Creating a context makes its device current on the creating thread: the first device's peaks (the roofline of
// `topo --gpus all`'s report) must still be measured on the first device. They failed with "cudaMemsetAsync: invalid
// argument" (memory of GPU 1 set on a stream of GPU 0) until the peaks made their device current (2026-11-26).
TEST(TopoMultiGpu, TheFirstDevicesPeaksAfterTheSecondWasOpened) {
  KS_REQUIRE_GPU();
  if (list_devices().size() < 2) GTEST_SKIP() << "fewer than 2 CUDA devices";
  auto a = CudaContext::create(0), b = CudaContext::create(1);
  EXPECT_GT(a->copy_bandwidth_gbps(), 100.0);
  EXPECT_GT(a->fma_peak_gflops(), 1000.0);
  EXPECT_GT(b->copy_bandwidth_gbps(), 100.0);
}

}  // namespace
}  // namespace ks::topo
