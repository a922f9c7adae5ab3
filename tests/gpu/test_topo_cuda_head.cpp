// The CUDA sweep with a head (sweep_head.hpp) against the CPU's (itself checked against the direct sweep and the
// definition in tests/cpu/test_topo_sweep_head.cpp): heads forced at small n in every arithmetic the GPU picks,
// both variants, every pass, ranges across heads; and n = 17 on nug17, whose runs take the float Stats kernel.
// Skips without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "support/qaplib_optima.hpp"
#include "support/shared_data.hpp"
#include "support/shared_pool.hpp"
#include "support/topo_cuda_sweeps.hpp"
#include "support/test_support.hpp"
#include "support/topo_compare.hpp"
#include "support/topo_instances.hpp"
#include "topo/evaluation.hpp"
#include "topo/permutation.hpp"

namespace ks::topo {
namespace {

using test::pool;
using test::sweep_on;

// Real costs: the delta variant walks as the CPU does (same bits) but sums the means in another order.
void expect_same_real(const EvalResult& gpu, const EvalResult& cpu, bool delta) {
  ASSERT_EQ(gpu.slices.size(), cpu.slices.size());
  for (std::size_t k = 0; k < cpu.slices.size(); ++k) {
    const SliceResult &g = gpu.slices[k], &c = cpu.slices[k];
    EXPECT_EQ(g.count, c.count);
    const double tolerance = delta ? 0 : 1e-12 * std::fabs(c.max.value);
    EXPECT_NEAR(g.min.value, c.min.value, tolerance);
    EXPECT_NEAR(g.max.value, c.max.value, tolerance);
    EXPECT_NEAR(g.mean, c.mean, 1e-12 * std::fabs(c.mean));
    if (delta) {
      EXPECT_EQ(g.argmin, c.argmin);
    }
  }
  ASSERT_EQ(gpu.top.size(), cpu.top.size());
  if (delta) {
    for (std::size_t i = 0; i < cpu.top.size(); ++i) EXPECT_EQ(gpu.top[i].index, cpu.top[i].index) << i;
  }
}

struct HeadCase {
  int n, h;
  std::uint64_t run_blocks;
  bool integer;
  std::int64_t max_traffic;  // picks the GPU's arithmetic
  const char* arithmetic;
};

class CudaHeadVsCpu : public ::testing::TestWithParam<HeadCase> {};

TEST_P(CudaHeadVsCpu, EveryPassMatches) {
  KS_REQUIRE_GPU();
  const HeadCase k = GetParam();
  std::vector<Configuration> cs;
  for (int c = 0; c < 2; ++c) cs.push_back(test::random_costs(k.n, 90 + std::uint32_t(c), k.integer, true));
  const Problem p = make_problem(test::random_traffic(k.n, 2, 7, k.integer, k.max_traffic), cs);
  const std::uint64_t per_head = factorial(k.n - k.h);
  EvalRequest req;
  req.top_k = 9;
  req.shape = SweepShape{k.h, k.run_blocks};
  req.range_begin = per_head / 2 + 3;
  req.range_end = std::min(factorial(k.n), 6 * per_head) - per_head / 3;
  if (k.n <= 7) req.cube_limit_bytes = 64 << 20;
  const EvalResult cpu = sweep_on(p, req, Backend::Cpu, "");
  for (const char* variant : {"delta", "naive"}) {
    SCOPED_TRACE(variant);
    const EvalResult gpu = sweep_on(p, req, Backend::Cuda, variant);
    EXPECT_NE(gpu.timing.launch.find(k.arithmetic), std::string::npos) << gpu.timing.launch;
    if (std::string(variant) == "delta") {
      EXPECT_NE(gpu.timing.launch.find("head of " + std::to_string(k.h)), std::string::npos) << gpu.timing.launch;
    }
    if (p.exact) {
      test::expect_identical(gpu, cpu);
      EXPECT_EQ(gpu.cube_scaled, cpu.cube_scaled);
    } else {
      expect_same_real(gpu, cpu, std::string(variant) == "delta");
      if (std::string(variant) == "delta") {
        EXPECT_EQ(gpu.cube_real, cpu.cube_real);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Heads, CudaHeadVsCpu,
    ::testing::Values(HeadCase{7, 2, 0, true, 1000, "exact in float"}, HeadCase{9, 2, 5, true, 1000, "exact in float"},
                      HeadCase{10, 1, 7, true, 1000, "exact in float"}, HeadCase{6, 2, 1, true, 1000, "exact in float"},
                      HeadCase{9, 1, 3, true, 100000, "exact in double"},
                      HeadCase{8, 2, 2, true, std::int64_t(1) << 44, "exact in 64-bit integers"},
                      HeadCase{9, 2, 5, false, 1000, "real, in double"}, HeadCase{7, 1, 0, false, 1000, "real, in double"}),
    [](const auto& info) {
      const HeadCase& c = info.param;
      return "n" + std::to_string(c.n) + "_head" + std::to_string(c.h) + "_" +
             (c.integer ? (c.max_traffic > 1000000 ? "int64" : c.max_traffic > 1000 ? "double" : "float") : "real");
    });

// n = 17: ranges whose whole runs take the float Stats kernel, one across the boundary of heads 0 and 1, one
// around an optimal placement of nug17 (cost 1732), against the CPU bit for bit.
TEST(TopoCudaHead, SeventeenNodesOfNug17MatchTheCpu) {
  KS_REQUIRE_GPU();
  const auto file = test::data("qaplib-20/nug17.dat");
  KS_REQUIRE_DATA(file);
  const Problem p = test::qaplib_problem(file);
  const std::uint64_t optimum_at = index_of_placement({15, 14, 1, 13, 8, 10, 7, 11, 9, 2, 3, 0, 6, 5, 12, 16, 4});
  for (const auto& [lo, hi] : {std::pair{factorial(16) - 12345678, factorial(16) + 23456789},
                               std::pair{optimum_at - 5000000, optimum_at + 5000000}}) {
    SCOPED_TRACE(::testing::Message() << lo << ":" << hi);
    EvalRequest req;
    req.range_begin = lo;
    req.range_end = hi;
    req.top_k = 5;
    const EvalResult cpu = sweep_on(p, req, Backend::Cpu, "");
    const EvalResult gpu = sweep_on(p, req, Backend::Cuda, "delta");
    EXPECT_NE(gpu.timing.launch.find("head of 1"), std::string::npos) << gpu.timing.launch;
    EXPECT_NE(gpu.timing.launch.find("exact in float"), std::string::npos) << gpu.timing.launch;
    test::expect_identical(gpu, cpu);
    if (lo < optimum_at && optimum_at < hi) {
      EXPECT_EQ(gpu.at(0, 0).min.scaled, 1732);
    }
  }
}

// n = 17 on every device (two workers on one when there is one), in uneven chunks across the boundary of heads 2
// and 3: the bits of one GPU and of the CPU.
TEST(TopoCudaHead, SeventeenNodesOnEveryDeviceGiveTheBitsOfOne) {
  KS_REQUIRE_GPU();
  const auto file = test::data("qaplib-20/nug17.dat");
  KS_REQUIRE_DATA(file);
  const Problem p = test::qaplib_problem(file);
  std::vector<std::unique_ptr<CudaContext>> contexts;
  const std::size_t devices = list_devices().size();
  for (std::size_t d = 0; d < std::max<std::size_t>(devices, 2); ++d) contexts.push_back(CudaContext::create(int(d % devices)));
  EvalRequest r;
  r.backend = Backend::Cuda;
  r.top_k = 7;
  r.range_begin = 3 * factorial(16) - 398765432;
  r.range_end = 3 * factorial(16) + 601234567;
  r.batch_evaluations = 50000017;  // about 20 chunks, one across the heads
  SweepSetup one, all;
  one.gpu_workers = {contexts.front().get()};
  for (auto& c : contexts) all.gpu_workers.push_back(c.get());
  const EvalResult a = evaluate(p, r, {}, one), b = evaluate(p, r, {}, all);
  test::expect_identical(b, a);
  for (const auto& w : b.timing.workers) EXPECT_GT(w.chunks, 0u) << w.name;
  EvalRequest cpu = r;
  cpu.backend = Backend::Cpu;
  test::expect_identical(b, evaluate(p, cpu, {}, pool<0>(), nullptr));
}

}  // namespace
}  // namespace ks::topo
