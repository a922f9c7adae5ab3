// The batch dive's evaluator on the GPU (make_cuda_node_evaluator: a warp per node) against the CPU's
// (CpuNodeEvaluator) node by node: bounds, branches and the children's lower bounds, at every depth, with
// floors above and below the bounds and an incumbent among them, on QAPLIB instances, odd sizes past a warp's
// 32 lanes, and batches split across launches; and proofs with it that explore the CPU dive's tree (the same
// nodes) to the published optimum, alone and beside diving threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <numeric>
#include <random>

#include "core/thread_pool.hpp"
#include "support/qaplib_optima.hpp"
#include "support/shared_data.hpp"
#include "support/shared_pool.hpp"
#include "support/test_support.hpp"
#include "support/topo_instances.hpp"
#include "topo/bnb/bnb.hpp"
#include "topo/bnb/bound_batch_cuda.hpp"
#include "topo/bnb/gl_branch.hpp"
#include "topo/bnb/gpu_feeders.hpp"
#include "topo/bnb/node_batch.hpp"
#include "topo/inputs/qaplib.hpp"

namespace ks::topo {
namespace {

CudaContext& context() {
  static std::unique_ptr<CudaContext> c = CudaContext::create(0);
  return *c;
}

const std::int64_t* proved_traffic(const Problem& p) {
  return p.traffic_scaled.data() + std::size_t(p.summed_slice ? p.timestamps : 0) * std::size_t(p.n) * std::size_t(p.n);
}

void expect_equal_evaluations(const Problem& p, const std::string& name, std::size_t count = 200) {
  const int n = p.n;
  const std::int64_t* traffic = proved_traffic(p);
  CpuNodeEvaluator cpu;
  const auto gpu = make_cuda_node_evaluator(context());
  cpu.load(traffic, p.cost_scaled.data(), n);
  gpu->load(traffic, p.cost_scaled.data(), n);
  std::mt19937_64 rng(23);
  std::vector<int> base(static_cast<std::size_t>(n));
  std::iota(base.begin(), base.end(), 0);
  for (int depth = 0; depth < n; ++depth) {
    std::vector<int> orders, locs;
    for (std::size_t k = 0; k < count; ++k) {
      std::vector<int> v = base;
      std::shuffle(v.begin(), v.end(), rng);
      orders.insert(orders.end(), v.begin(), v.end());
      std::shuffle(v.begin(), v.end(), rng);
      locs.insert(locs.end(), v.begin(), v.begin() + depth);
    }
    // The plain bounds first, so that the incumbent and the floors fall among them.
    const std::vector<std::int64_t> plain =
        gl_bounds(traffic, p.cost_scaled.data(), n, orders, locs, depth, test::pool());
    std::vector<std::int64_t> sorted = plain, floors(count);
    std::sort(sorted.begin(), sorted.end());
    const std::int64_t spread = sorted.back() - sorted.front() + 1;
    std::uniform_int_distribution<std::int64_t> offset(-spread / 4 - 1, spread / 4 + 1);
    for (std::size_t k = 0; k < count; ++k)
      floors[k] = k % 3 == 0 ? std::numeric_limits<std::int64_t>::min() : plain[k] + offset(rng);
    NodeBatch b;
    b.depth = depth;
    b.nodes = count;
    b.orders = orders.data();
    b.locs = locs.data();
    b.floors = floors.data();
    b.best = sorted[sorted.size() * 3 / 4] + spread / 8;
    for (bool pruning : {true, false}) {
      b.reduced_cost_pruning = pruning;
      NodeBatchResult a, g;
      cpu.evaluate(b, a);
      gpu->evaluate(b, g);
      const std::size_t m = std::size_t(n - depth);
      for (std::size_t k = 0; k < count; ++k) {
        ASSERT_EQ(g.bounds[k], a.bounds[k]) << name << " depth " << depth << " node " << k;
        ASSERT_EQ(g.lines[k], a.lines[k]) << name << " depth " << depth << " node " << k;
        if (a.lines[k] == kNoBranch) continue;
        for (std::size_t j = 0; j < m; ++j)
          ASSERT_EQ(g.lowers[k * m + j], a.lowers[k * m + j]) << name << " depth " << depth << " node " << k;
      }
    }
  }
}

TEST(BnbCudaBatch, GpuEvaluationsEqualCpuEvaluationsOnQaplibNodes) {
  KS_REQUIRE_GPU();
  int seen = 0;
  for (const char* rel : {"qaplib/nug12.dat", "qaplib/chr15a.dat", "qaplib/had16.dat", "qaplib-20/nug20.dat",
                          "qaplib-20/tai20a.dat"}) {
    const auto file = test::data(rel);
    if (!std::filesystem::exists(file)) continue;
    ++seen;
    expect_equal_evaluations(test::qaplib_problem(file), rel);
  }
  if (seen == 0) GTEST_SKIP() << "no QAPLIB files beside the checkout";
}

TEST(BnbCudaBatch, GpuEvaluationsEqualCpuEvaluationsOnOddSizesPastAWarp) {
  KS_REQUIRE_GPU();
  // Summed timestamps, asymmetric path costs with a diagonal; n = 33 and 45 put more rows than lanes in a warp.
  for (int n : {3, 13, 33, 45})
    expect_equal_evaluations(make_problem(test::random_traffic(n, 3, std::uint32_t(n), true, 40),
                                          {test::random_costs(n, 2, true, true)}),
                             "random n = " + std::to_string(n), n > 20 ? 40 : 200);
}

TEST(BnbCudaBatch, ABatchLargerThanALaunchIsSplit) {
  KS_REQUIRE_GPU();
  expect_equal_evaluations(make_problem(test::random_traffic(20, 1, 9, true, 100), {test::random_costs(20, 3)}),
                           "random n = 20, 20000 nodes a depth", 20000);
}

// With one thread the GPU explores every subtree; with the shared pool it shares them with diving threads.
TEST(BnbCudaBatch, ProofsExploreTheCpuDivesTree) {
  KS_REQUIRE_GPU();
  KS_REQUIRE_DATA(test::data("qaplib/nug12.dat"));
  static ThreadPool one(1);
  const auto gpu = make_cuda_node_evaluator(context());
  BnbRequest batched;
  batched.evaluators = {gpu.get()};
  std::vector<std::pair<QaplibInstance, std::int64_t>> instances = test::small_qaplib_instances();
  // QAPLIB's published optima.
  for (const auto& [rel, optimum] : {std::pair<const char*, std::int64_t>{"qaplib/nug15.dat", 1150},
                                     std::pair<const char*, std::int64_t>{"qaplib/had16.dat", 3720}}) {
    const auto file = test::data(rel);
    if (std::filesystem::exists(file)) instances.push_back({read_qaplib(file), optimum});
  }
  for (const auto& [q, optimum] : instances) {
    const Problem p = make_problem(traffic_from_qaplib(q), {configuration_from_qaplib(q)});
    const BnbResult dive = prove(p, {}, {}, test::pool());
    for (ThreadPool* pool : {&one, &test::pool()}) {
      const BnbResult r = prove(p, batched, {}, *pool);
      const std::string name = q.name + (pool == &one ? " (GPU alone)" : " (GPU and threads)");
      EXPECT_TRUE(r.best().proof.optimal) << name;
      EXPECT_EQ(r.best().best.scaled, optimum) << name;
      EXPECT_EQ(r.best().proof.nodes, dive.best().proof.nodes) << name;
      EXPECT_EQ(r.best().proof.best_bound.scaled, dive.best().proof.best_bound.scaled) << name;
    }
  }
}

// Several threads feeding one GPU (GpuFeeders: the extra ones on contexts of their own, as the CLI, the app and
// Python make them), alone and with a diving thread: the CPU dive's tree, node for node, to the optimum, and each
// feeding thread's time says it took batches.
TEST(BnbCudaBatch, SeveralThreadsFeedingOneGpuExploreTheCpuDivesTree) {
  KS_REQUIRE_GPU();
  KS_REQUIRE_DATA(test::data("qaplib/chr15a.dat"));
  const QaplibInstance q = read_qaplib(test::data("qaplib/chr15a.dat"));
  const Problem p = make_problem(traffic_from_qaplib(q), {configuration_from_qaplib(q)});
  const BnbResult dive = prove(p, {}, {}, test::pool());
  static ThreadPool three(3), four(4);
  GpuFeeders feeders(context(), 3);
  ASSERT_EQ(feeders.evaluators().size(), 3u);
  BnbRequest fed;
  fed.evaluators = feeders.evaluators();
  for (ThreadPool* pool : {&three, &four}) {
    const BnbResult r = prove(p, fed, {}, *pool);
    const std::string name = pool == &three ? "three feeding threads" : "three feeding threads and one diving";
    EXPECT_TRUE(r.best().proof.optimal) << name;
    EXPECT_EQ(r.best().best.scaled, 9896) << name;  // QAPLIB's published optimum of chr15a
    EXPECT_EQ(r.best().proof.nodes, dive.best().proof.nodes) << name;
    ASSERT_EQ(r.feeders.size(), 3u) << name;
    std::uint64_t batches = 0;
    for (const auto& f : r.feeders) {
      EXPECT_EQ(f.device, "GPU 0 (" + context().device().name + ")") << name;
      EXPECT_LE(f.time.device_s, f.time.evaluate_s) << name;
      batches += f.time.batches;
    }
    EXPECT_GT(batches, 0u) << name;
  }
  EXPECT_NE(prove(p, fed, {}, three).device.find("with 3 feeding threads"), std::string::npos);
}

}  // namespace
}  // namespace ks::topo
