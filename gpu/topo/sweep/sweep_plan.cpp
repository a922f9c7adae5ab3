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

SweepPlan plan_sweep(int n, std::uint64_t lo, std::uint64_t hi, std::uint64_t pairs) {
  if (n < 1 || n > kMaxEnumeratedNodes)
    throw Error(ErrorKind::Internal, "plan_sweep: n = " + std::to_string(n) + " cannot be enumerated");
  SweepPlan p;
  p.n = n;
  p.total = factorial(n);
  if (!(lo < hi && hi <= p.total)) throw Error(ErrorKind::Internal, "plan_sweep: bad index range");
  p.suffix = std::min(n, kMaxHeapSlots);
  p.q = n - p.suffix;
  p.block_size = factorial(p.suffix);
  p.heap = make_heap_swaps(p.suffix);
  const std::uint64_t blocks = p.total / p.block_size;
  const std::uint64_t wanted_runs = std::max<std::uint64_t>(1, kTargetParallelRuns / std::max<std::uint64_t>(pairs, 1));
  p.run_blocks = std::clamp<std::uint64_t>(blocks / wanted_runs, 1, kMaxRunBlocks);
  p.run_size = p.run_blocks * p.block_size;
  p.lo = lo;
  p.hi = hi;
  p.first_run = lo / p.run_size;
  p.end_run = (hi + p.run_size - 1) / p.run_size;
  return p;
}

RunBounds SweepPlan::run(std::uint64_t r) const {
  RunBounds b;
  b.first_index = r * run_size;
  const std::uint64_t end = std::min(b.first_index + run_size, total);
  b.blocks = (end - b.first_index) / block_size;
  b.masked = b.first_index < lo || end > hi;
  if (b.masked) {
    b.lo_code = code_of_index(lo, n);
    b.hi_open = hi == total;
    b.hi_code = b.hi_open ? ~std::uint64_t(0) : code_of_index(hi, n);
  }
  return b;
}

RunGeometry SweepPlan::geometry() const {
  RunGeometry g;
  g.n = n;
  g.q = q;
  g.heap_steps = heap.count;
  g.heap = heap.step;
  return g;
}

std::uint64_t SweepPlan::end_index(std::uint64_t run_b) const { return std::min(run_b * run_size, hi); }

std::uint64_t SweepPlan::placements_in(std::uint64_t run_a, std::uint64_t run_b) const {
  const std::uint64_t a = std::max(run_a * run_size, lo);
  const std::uint64_t b = std::min(run_b * run_size, hi);
  return b > a ? b - a : 0;
}

}  // namespace ks::topo
