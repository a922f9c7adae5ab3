#pragma once
// How an exhaustive sweep over placement indices [lo, hi) is cut into runs (see sweep_core.hpp). The cut
// depends only on n and the number of (slice, configuration) pairs, never on the backend, the thread count or
// the range, so every backend evaluates each placement through the same sequence of operations: costs that
// are not exact integers still agree to the last bit between the CPU and CUDA, and between a whole sweep and
// the same sweep split with --range.
#include <cstdint>

#include "topo/permutation.hpp"
#include "topo/sweep/sweep_core.hpp"

namespace ks::topo {

inline constexpr int kMaxExhaustiveNodes = 16;  // 16! = 2.1e13 placements (codes hold 16 nodes): GPUs, ranks

struct SweepPlan {
  int n = 0;
  int q = 0;                      // prefix positions (n - suffix)
  int suffix = 0;                 // m: positions permuted by Heap's algorithm inside a block, at most 5
  std::uint64_t block_size = 0;   // m!
  std::uint64_t run_blocks = 0;   // blocks per run
  std::uint64_t run_size = 0;     // placements per run
  std::uint64_t total = 0;        // n!
  std::uint64_t lo = 0, hi = 0;   // the requested placements
  std::uint64_t first_run = 0, end_run = 0;  // runs that cover [lo, hi)
  HeapSwaps heap{};

  std::uint64_t run_count() const { return end_run - first_run; }
  RunBounds run(std::uint64_t r) const;
  RunGeometry geometry() const;  // points into `heap`: valid while this plan lives (copy the plan, not this)
  // Placements of [lo, hi) that runs [run_a, run_b) visit.
  std::uint64_t placements_in(std::uint64_t run_a, std::uint64_t run_b) const;
  // The index one past the last placement that runs [first_run, run_b) visit: where a resumed sweep starts.
  std::uint64_t end_index(std::uint64_t run_b) const;
};

// n <= kMaxEnumeratedNodes; 0 <= lo < hi <= n!. `pairs`: slices x configurations.
SweepPlan plan_sweep(int n, std::uint64_t lo, std::uint64_t hi, std::uint64_t pairs);

}  // namespace ks::topo
