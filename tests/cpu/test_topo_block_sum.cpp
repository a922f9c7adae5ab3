// The float sweep's statistics per block (block_sum.hpp, RunningStats::add_in_block): the 32-bit sum of float
// bits is exact up to its limits (kMaxBlockCosts costs of the largest magnitude the float path takes, 2^21 - 1),
// folds into a 128-bit sum across its carry, and the per-block form keeps the same minimum, key, maximum, sum
// and count as adding one cost at a time; the suffix walker's codes (built only when asked) name the
// placements whose costs it reports.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "topo/block_sum.hpp"
#include "topo/sweep/sweep_core.hpp"
#include "topo/sweep/sweep_plan.hpp"
#include "topo/swap_delta.hpp"

namespace ks::topo {
namespace {

__extension__ typedef __int128 int128;  // GCC and Clang: the exact value of a Sum128

constexpr std::int64_t kLargestFloatCost = (std::int64_t(1) << 21) - 1;  // the CUDA backend's float bound, less 1

int128 as_int128(const Sum128& s) {
  return (int128(s.hi) << 64) + int128(s.lo);
}

// Folds `costs` (at most kMaxBlockCosts) through BlockSum<ExactFloat> into a sum that starts at `start`.
int128 folded(const std::vector<std::int64_t>& costs, Sum128 start) {
  BlockSum<ExactFloat> block;
  for (std::int64_t c : costs) block.add(start, float(c));
  block.fold(start, std::uint32_t(costs.size()));
  return as_int128(start);
}

TEST(TopoBlockSum, FloatBlocksAreExactAtTheirLimits) {
  const std::uint32_t most = kMaxBlockCosts;
  for (std::int64_t cost : {kLargestFloatCost, -kLargestFloatCost, std::int64_t(0), std::int64_t(1)}) {
    const std::vector<std::int64_t> costs(most, cost);
    EXPECT_EQ(folded(costs, Sum128{}), int128(cost) * most) << cost;
  }
  // Alternating extremes, and a block of one.
  std::vector<std::int64_t> alternating;
  for (std::uint32_t k = 0; k < most; ++k) alternating.push_back(k % 2 ? -kLargestFloatCost : kLargestFloatCost - 7);
  EXPECT_EQ(folded(alternating, Sum128{}), int128(512) * (kLargestFloatCost - 7) - int128(512) * kLargestFloatCost);
  EXPECT_EQ(folded({-kLargestFloatCost}, Sum128{}), -kLargestFloatCost);
}

TEST(TopoBlockSum, FoldsCarryIntoTheHighWord) {
  // A sum just below 2^64 and just above -2^64: the block's total crosses the low word's carry both ways.
  Sum128 below_carry;
  below_carry.lo = ~std::uint64_t(0) - 5;
  const std::vector<std::int64_t> up(120, kLargestFloatCost);
  EXPECT_EQ(folded(up, below_carry), as_int128(below_carry) + int128(120) * kLargestFloatCost);
  Sum128 negative;
  negative.lo = 3;
  negative.hi = -1;
  const std::vector<std::int64_t> down(120, -kLargestFloatCost);
  EXPECT_EQ(folded(down, negative), as_int128(negative) - int128(120) * kLargestFloatCost);
}

TEST(TopoBlockSum, RandomBlocksOfEverySize) {
  std::mt19937_64 rng(2026);
  std::uniform_int_distribution<std::int64_t> cost(-kLargestFloatCost, kLargestFloatCost);
  for (std::uint32_t size : {1u, 2u, 23u, 24u, 120u, 777u, 1024u}) {
    std::vector<std::int64_t> costs;
    std::int64_t expected = 0;
    for (std::uint32_t k = 0; k < size; ++k) {
      costs.push_back(cost(rng));
      expected += costs.back();
    }
    EXPECT_EQ(folded(costs, Sum128{}), expected) << size;
  }
}

// Blocks of costs with many ties at the minimum, keys in any order: the per-block form equals add.
TEST(TopoBlockSum, PerBlockStatisticsEqualOneAtATime) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> small(0, 5);  // few values: the minimum ties often
  std::uniform_int_distribution<std::uint64_t> key(0, 1000);
  RunningStats<ExactFloat> one, blocked;
  std::uint64_t key_calls = 0, at_or_below_min = 0;
  for (int block = 0; block < 40; ++block) {
    const int size = block % 3 ? 120 : 1 + block;
    for (int k = 0; k < size; ++k) {
      const float c = float(small(rng) * 100000 - 200000);
      const std::uint64_t id = key(rng);
      if (c <= blocked.min) ++at_or_below_min;
      one.add(c, id);
      blocked.add_in_block(c, [&] {
        ++key_calls;
        return id;
      });
    }
    blocked.fold_block();
  }
  EXPECT_EQ(blocked.min, one.min);
  EXPECT_EQ(blocked.key, one.key);
  EXPECT_EQ(blocked.max, one.max);
  EXPECT_EQ(as_int128(blocked.sum), as_int128(one.sum));
  EXPECT_EQ(blocked.count, one.count);
  EXPECT_EQ(key_calls, at_or_below_min);  // the key only for costs at or below the minimum so far
  EXPECT_LT(key_calls, one.count);
}

// The suffix walker keeps its last five nodes apart and builds the code only when asked: every placement of
// n = 7 is visited once, under its own code, with the cost of that placement from the definition.
TEST(TopoBlockSum, SuffixWalkerCodesNameTheirPlacements) {
  const int n = 7;
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<std::int64_t> value(0, 50);
  std::vector<std::int64_t> traffic(n * n), path(n * n);
  for (auto& t : traffic) t = value(rng);
  for (auto& d : path) d = value(rng);
  const SweepPlan plan = plan_sweep(n, 0, factorial(n), 1);
  const RunGeometry g = plan.geometry();
  std::vector<std::int64_t> coefficients(kSuffixSteps * kStepCoefficients);
  for (int step = 0; step < kSuffixSteps; ++step)
    suffix_coefficients<ExactInt64>(path.data(), n, g.q, step, coefficients.data() + step * kStepCoefficients);
  std::vector<int> seen(factorial(n), 0);
  SuffixWalker<ExactInt64, 0> w;
  w.traffic = traffic.data();
  w.cost_of = path.data();
  w.runtime_n = n;
  w.coefficients = coefficients.data();
  auto visit = [&](const SuffixWalker<ExactInt64, 0>& x) {
    const std::uint64_t code = x.placement_code();
    ++seen[index_of_code(code, n)];
    EXPECT_EQ(x.cost, full_cost<ExactInt64>(traffic.data(), path.data(), CodePlacement{code}, n)) << code;
  };
  for (std::uint64_t r = plan.first_run; r < plan.end_run; ++r) walk_run(w, g, plan.run(r), visit);
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), std::ptrdiff_t(seen.size()));
}

}  // namespace
}  // namespace ks::topo
