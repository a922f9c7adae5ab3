#include "topo/sweep/sweep_plan.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace ks::topo {

namespace {
// Enough runs to fill a large GPU several times over (a thread walks one run per pair), few enough that the
// full evaluation at the start of each run stays a small share of the work. Runs of at most 128 blocks (15 360
// placements for n >= 5) keep every GPU chunk (2^32 evaluations) at 280 000 runs or more, so large n fills the
// GPU too, and leave n = 14 twenty chunks to share between GPUs and ranks: with 4096-block runs an n = 14 batch of
// 2^33 evaluations had 17 500 threads, about one block per SM (one cause of n = 14's slow rate;
// docs/PERF.md).
constexpr std::uint64_t kTargetParallelRuns = std::uint64_t(1) << 17;
constexpr std::uint64_t kMaxRunBlocks = 128;
}  // namespace

SweepPlan plan_sweep(int n, std::uint64_t lo, std::uint64_t hi, std::uint64_t pairs, SweepShape shape) {
  const int h = shape.head >= 0 ? shape.head : std::max(0, n - kMaxEnumeratedNodes);
  if (n < 1 || n > kMaxPlacementNodes || n - h > kMaxEnumeratedNodes || (h > 0 && n - h < 2) || h < 0 || h > n)
    throw Error(ErrorKind::Internal, "plan_sweep: n = " + std::to_string(n) + " with a head of " + std::to_string(h) +
                                         " positions cannot be enumerated");
  SweepPlan p;
  p.n = n;
  p.h = h;
  p.t = n - h;
  p.total = factorial(n);
  p.heads = p.total / factorial(p.t);
  if (p.heads > kMaxHeads)
    throw Error(ErrorKind::Internal, "plan_sweep: " + std::to_string(p.heads) + " heads do not fit a key");
  if (!(lo < hi && hi <= p.total)) throw Error(ErrorKind::Internal, "plan_sweep: bad index range");
  p.suffix = std::min(p.t, kMaxHeapSlots);
  p.q = p.t - p.suffix;
  p.block_size = factorial(p.suffix);
  p.heap = make_heap_swaps(p.suffix);
  const std::uint64_t tail_total = factorial(p.t);
  const std::uint64_t blocks = p.total / p.block_size;
  const std::uint64_t wanted_runs = std::max<std::uint64_t>(1, kTargetParallelRuns / std::max<std::uint64_t>(pairs, 1));
  p.run_blocks = shape.run_blocks ? shape.run_blocks : std::clamp<std::uint64_t>(blocks / wanted_runs, 1, kMaxRunBlocks);
  p.run_size = p.run_blocks * p.block_size;
  p.lo = lo;
  p.hi = hi;

  RunLayout& L = p.layout;
  L.run_size = p.run_size;
  L.block_size = p.block_size;
  L.tail_total = tail_total;
  L.runs_per_head = (tail_total + p.run_size - 1) / p.run_size;
  L.lo = lo;
  L.hi = hi;
  L.hi_is_end = hi == p.total;
  L.lo_code = code_of_index(lo % tail_total, p.t);
  L.hi_code = L.hi_is_end ? ~std::uint64_t(0) : code_of_index(hi % tail_total, p.t);
  const auto run_of = [&](std::uint64_t index) {
    return (index / tail_total) * L.runs_per_head + (index % tail_total) / p.run_size;
  };
  p.first_run = run_of(lo);
  p.end_run = run_of(hi - 1) + 1;
  return p;
}

SweepKeys SweepPlan::keys() const {
  SweepKeys k;
  k.n = n;
  k.h = h;
  k.t = t;
  k.tail_total = layout.tail_total;
  return k;
}

RunGeometry SweepPlan::geometry() const {
  RunGeometry g;
  g.n = t;
  g.q = q;
  g.heap_steps = heap.count;
  g.heap = heap.step;
  return g;
}

std::uint64_t SweepPlan::end_index(std::uint64_t run_b) const { return std::min(layout.run_start(run_b), hi); }

std::uint64_t SweepPlan::placements_in(std::uint64_t run_a, std::uint64_t run_b) const {
  const std::uint64_t a = std::max(layout.run_start(run_a), lo);
  const std::uint64_t b = std::min(layout.run_start(run_b), hi);
  return b > a ? b - a : 0;
}

}  // namespace ks::topo
