// Placement numbering: index -> permutation is a bijection onto the n! permutations in lexicographic order,
// for every n <= 10 (every index checked), and the sweep's enumeration (runs of Heap's algorithm plus prefix
// steps) visits each placement of a run exactly once.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "support/topo_instances.hpp"
#include "topo/evaluation.hpp"
#include "topo/permutation.hpp"
#include "topo/sweep/sweep_plan.hpp"

namespace ks::topo {
namespace {

std::vector<int> nodes_of(std::uint64_t code, int n) {
  std::vector<int> out;
  for (int i = 0; i < n; ++i) out.push_back(node_at(code, i));
  return out;
}

TEST(TopoPermutation, IndexToPlacementIsABijectionInLexicographicOrder) {
  for (int n = 1; n <= 10; ++n) {
    SCOPED_TRACE(::testing::Message() << "n = " << n);
    // Walk std::next_permutation alongside: the k-th permutation it visits must be index k, both ways.
    std::vector<int> expected(static_cast<std::size_t>(n));
    std::iota(expected.begin(), expected.end(), 0);
    std::uint64_t index = 0;
    bool ok = true;
    do {
      const std::uint64_t code = code_of_index(index, n);
      if (nodes_of(code, n) != expected || index_of_code(code, n) != index) {
        ADD_FAILURE() << "index " << index;
        ok = false;
        break;
      }
      ++index;
    } while (std::next_permutation(expected.begin(), expected.end()));
    if (!ok) continue;
    EXPECT_EQ(index, factorial(n));  // n! distinct permutations, each reached from exactly one index
  }
}

TEST(TopoPermutation, HostHelpersAgreeWithTheCodes) {
  for (int n : {1, 2, 5, 9, 12, 16}) {
    const std::uint64_t total = factorial(n);
    for (std::uint64_t index : {std::uint64_t(0), total / 3, std::min(total / 2 + 1, total - 1), total - 1}) {
      const std::vector<int> p = placement_of_index(index, n);
      EXPECT_EQ(p, nodes_of(code_of_index(index, n), n));
      EXPECT_EQ(index_of_placement(p), index);
    }
  }
  EXPECT_EQ(placement_of_index(0, 4), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(placement_of_index(23, 4), (std::vector<int>{3, 2, 1, 0}));
  EXPECT_EQ(placement_of_index(1, 4), (std::vector<int>{0, 1, 3, 2}));
}

TEST(TopoPermutation, HeapsAlgorithmVisitsEveryArrangement) {
  for (int m = 1; m <= kMaxHeapSlots; ++m) {
    const HeapSwaps h = make_heap_swaps(m);
    EXPECT_EQ(std::uint64_t(h.count), factorial(m) - 1);
    std::vector<int> a(static_cast<std::size_t>(m));
    std::iota(a.begin(), a.end(), 0);
    std::vector<std::vector<int>> seen{a};
    for (int s = 0; s < h.count; ++s) {
      std::swap(a[std::size_t(h.step[s] >> 4)], a[std::size_t(h.step[s] & 15)]);
      seen.push_back(a);
    }
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(std::unique(seen.begin(), seen.end()), seen.end()) << "m = " << m;
  }
}

// A walker that only tracks the code: which placements a run visits, and in which order.
struct CodeOnly {
  std::uint64_t code = 0;
  int runtime_n = 0;
  int n() const { return runtime_n; }
  void evaluate_in_full() {}
  void swap(int r, int s) { code = swap_positions(code, r, s); }
  template <class Visit>
  void walk_block(const RunGeometry& g, const RunBounds& b, Visit& visit) {
    walk_block_by_table(*this, g, b, visit);
  }
};

// The walk of n >= 5 nodes unrolls Heap's algorithm on 5 slots by its structure (SuffixWalker::walk_block):
// the same sequence as the table.
TEST(TopoPermutation, SuffixStepsAreHeapsAlgorithmOnFiveSlots) {
  const HeapSwaps h = make_heap_swaps(kSuffixSlots);
  ASSERT_EQ(h.count, kSuffixSlots * kSuffixSteps - 1);
  int at = 0;
  for (int round = 0; round < kSuffixSlots; ++round)
    for (int step = 0; step < kSuffixSteps; ++step) {
      if (step == kInnerSteps && round + 1 == kSuffixSlots) break;
      ASSERT_EQ(h.step[at] >> 4, suffix_step_a(step)) << "swap " << at;
      ASSERT_EQ(h.step[at] & 15, suffix_step_b(step)) << "swap " << at;
      ++at;
    }
  EXPECT_EQ(at, h.count);
}

TEST(TopoPermutation, RunsCoverTheirIndexRangesOnce) {
  for (int n : {3, 5, 6, 8, 9}) {
    for (std::uint64_t pairs : {1, 7, 5000}) {
      const SweepPlan plan = plan_sweep(n, 0, factorial(n), pairs);
      std::vector<char> seen(std::size_t(factorial(n)), 0);
      for (std::uint64_t r = plan.first_run; r < plan.end_run; ++r) {
        const RunBounds b = plan.run(r);
        CodeOnly w;
        w.runtime_n = n;
        std::uint64_t lo = ~std::uint64_t(0), hi = 0, count = 0;
        auto visit = [&](const CodeOnly& x) {
          const std::uint64_t i = index_of_code(x.code, n);
          ++seen[std::size_t(i)];
          lo = std::min(lo, i);
          hi = std::max(hi, i);
          ++count;
        };
        walk_run(w, plan.geometry(), b, visit);
        EXPECT_EQ(lo, b.first_index);
        EXPECT_EQ(hi + 1, b.first_index + count);  // a contiguous block of indices
      }
      EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), std::ptrdiff_t(seen.size()))
          << "n " << n << " pairs " << pairs;
    }
  }
}

}  // namespace
}  // namespace ks::topo
