#pragma once
// How an exhaustive sweep over placement indices [lo, hi) is cut into runs (see sweep_core.hpp). The cut
// depends only on n and the number of (slice, configuration) pairs, never on the backend, the thread count or
// the range, so every backend evaluates each placement through the same sequence of operations: costs that
// are not exact integers still agree to the last bit between the CPU and CUDA, and between a whole sweep and
// the same sweep split with --range.
//
// n = 17 is swept by heads (sweep_head.hpp): runs never cross from one head to the next, and the walk is that of
// the 16 tail positions.
#include <cstdint>

#include "topo/evaluation.hpp"
#include "topo/permutation.hpp"
#include "topo/sweep/sweep_core.hpp"
#include "topo/sweep/sweep_head.hpp"

namespace ks::topo {

// 17! = 3.6e14 placements: GPUs, ranks. Above 16 nodes a head fixes the first n - 16 positions, and its number
// must fit the 7 bits of the key (sweep_head.hpp): 17 heads of one position at n = 17, 306 of two at n = 18.
inline constexpr int kMaxExhaustiveNodes = 17;

struct SweepPlan {
  int n = 0;
  int h = 0;                      // head positions (0: none)
  int t = 0;                      // walked (tail) positions, n - h
  int q = 0;                      // prefix positions of the walk (t - suffix)
  int suffix = 0;                 // m: positions permuted by Heap's algorithm inside a block, at most 5
  std::uint64_t block_size = 0;   // m!
  std::uint64_t run_blocks = 0;   // blocks per run
  std::uint64_t run_size = 0;     // placements per run (the last run of a head may hold fewer)
  std::uint64_t total = 0;        // n!
  std::uint64_t heads = 1;        // n! / t!
  std::uint64_t lo = 0, hi = 0;   // the requested placements
  std::uint64_t first_run = 0, end_run = 0;  // runs that cover [lo, hi)
  RunLayout layout;               // the runs' numbering, as the kernels take it
  HeapSwaps heap{};

  std::uint64_t run_count() const { return end_run - first_run; }
  RunBounds run(std::uint64_t r) const { return layout.run(r); }
  std::uint64_t head_of_run(std::uint64_t r) const { return r / layout.runs_per_head; }
  SweepKeys keys() const;
  RunGeometry geometry() const;  // points into `heap`: valid while this plan lives (copy the plan, not this)
  // Placements of [lo, hi) that runs [run_a, run_b) visit.
  std::uint64_t placements_in(std::uint64_t run_a, std::uint64_t run_b) const;
  // The index one past the last placement that runs [first_run, run_b) visit: where a resumed sweep starts.
  std::uint64_t end_index(std::uint64_t run_b) const;
};

// 0 <= lo < hi <= n!; `pairs`: slices x configurations. Internal Error for a shape it cannot sweep (n above
// kMaxExhaustiveNodes, a tail above 16 nodes or under 2, more than kMaxHeads heads).
SweepPlan plan_sweep(int n, std::uint64_t lo, std::uint64_t hi, std::uint64_t pairs, SweepShape shape = {});

}  // namespace ks::topo
