// The bounds of branch and bound on the GPU (gl_bounds_cuda) equal the CPU's (gl_bounds) on the same nodes, to
// the last unit: random nodes of QAPLIB instances (n = 12 .. 20) at every depth, with one order for all nodes
// and with an order per node (as the dive's branching makes them), and batches larger than one launch.
#include <gtest/gtest.h>

#include <filesystem>
#include <numeric>
#include <random>

#include "support/shared_data.hpp"
#include "support/shared_pool.hpp"
#include "support/test_support.hpp"
#include "support/topo_instances.hpp"
#include "topo/bnb/bnb.hpp"
#include "topo/bnb/bound_batch_cuda.hpp"
#include "topo/inputs/qaplib.hpp"

namespace ks::topo {
namespace {

CudaContext& context() {
  static std::unique_ptr<CudaContext> c = CudaContext::create(0);
  return *c;
}

// `count` random nodes of `depth` fixed facilities: their locations, and (per_node) a random order each.
void random_nodes(int n, int depth, std::size_t count, bool per_node, std::mt19937_64& rng, std::vector<int>& orders,
                  std::vector<int>& locs) {
  std::vector<int> base(static_cast<std::size_t>(n));
  std::iota(base.begin(), base.end(), 0);
  orders.clear();
  locs.clear();
  if (!per_node) {
    orders = base;
    std::shuffle(orders.begin(), orders.end(), rng);
  }
  for (std::size_t k = 0; k < count; ++k) {
    std::vector<int> l = base;
    std::shuffle(l.begin(), l.end(), rng);
    locs.insert(locs.end(), l.begin(), l.begin() + depth);
    if (per_node) {
      std::shuffle(l.begin(), l.end(), rng);
      orders.insert(orders.end(), l.begin(), l.end());
    }
  }
}

void expect_equal_bounds(const Problem& p, const std::string& name) {
  std::mt19937_64 rng(17);
  const int n = p.n;
  const std::size_t nn = std::size_t(n) * std::size_t(n);
  const std::int64_t* traffic = p.traffic_scaled.data() + std::size_t(p.summed_slice ? p.timestamps : 0) * nn;
  for (int depth = 0; depth < n; ++depth)
    for (bool per_node : {false, true}) {
      const std::size_t count = depth == 0 ? 1 : 300;
      std::vector<int> orders, locs;
      random_nodes(n, depth, count, per_node && depth > 0, rng, orders, locs);
      const auto cpu = gl_bounds(traffic, p.cost_scaled.data(), n, orders, locs, depth, test::pool());
      const auto gpu = gl_bounds_cuda(context(), traffic, p.cost_scaled.data(), n, orders, locs, depth, count);
      ASSERT_EQ(cpu.size(), gpu.size());
      for (std::size_t k = 0; k < cpu.size(); ++k)
        ASSERT_EQ(gpu[k], cpu[k]) << name << " depth " << depth << " node " << k << (per_node ? " (own order)" : "");
    }
}

TEST(BnbCuda, GpuBoundsEqualCpuBoundsOnQaplibNodes) {
  KS_REQUIRE_GPU();
  int seen = 0;
  for (const char* rel : {"qaplib/nug12.dat", "qaplib/chr15a.dat", "qaplib/had16.dat", "qaplib-20/nug20.dat",
                          "qaplib-20/chr20a.dat"}) {
    const auto file = test::data(rel);
    if (!std::filesystem::exists(file)) continue;
    ++seen;
    const QaplibInstance q = read_qaplib(file);
    expect_equal_bounds(make_problem(traffic_from_qaplib(q), {configuration_from_qaplib(q)}), rel);
  }
  if (seen == 0) GTEST_SKIP() << "no QAPLIB files beside the checkout";
}

TEST(BnbCuda, GpuBoundsEqualCpuBoundsWithTimestampsAndNegativeTraffic) {
  KS_REQUIRE_GPU();
  // Summed traffic of three timestamps, asymmetric path costs with a diagonal.
  expect_equal_bounds(make_problem(test::random_traffic(13, 3, 5, true, 40), {test::random_costs(13, 2, true, true)}),
                      "random n = 13");
}

TEST(BnbCuda, ALargeBatchIsSplitAcrossLaunches) {
  KS_REQUIRE_GPU();
  const Problem p = make_problem(test::random_traffic(20, 1, 9, true, 100), {test::random_costs(20, 3)});
  std::mt19937_64 rng(2);
  std::vector<int> orders, locs;
  const std::size_t count = 100000;  // 1.5 GB of scratch at n = 20: more than one launch
  random_nodes(20, 4, count, true, rng, orders, locs);
  const auto cpu = gl_bounds(p.traffic_scaled.data(), p.cost_scaled.data(), 20, orders, locs, 4, test::pool());
  const auto gpu = gl_bounds_cuda(context(), p.traffic_scaled.data(), p.cost_scaled.data(), 20, orders, locs, 4, count);
  EXPECT_EQ(cpu, gpu);
}

}  // namespace
}  // namespace ks::topo
