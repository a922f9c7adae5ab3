#include "topo/bnb/batch_dive.hpp"

#include <algorithm>
#include <limits>

#include "topo/bnb/gl_branch.hpp"

namespace ks::topo {

namespace {

constexpr std::int64_t kNoFloor = std::numeric_limits<std::int64_t>::min();

}  // namespace

void BatchDive::Level::resize(std::size_t nodes, int n, int depth) {
  orders.resize(nodes * std::size_t(n));
  locs.resize(nodes * std::size_t(depth));
  floors.resize(nodes);
}

BatchDive::BatchDive(NodeEvaluator& evaluator, int n, std::vector<int> order, bool reduced_cost_pruning)
    : evaluator_(evaluator), n_(n), order_(std::move(order)), reduced_cost_pruning_(reduced_cost_pruning),
      levels_(std::size_t(n) + 1), used_(std::size_t(n)) {}

bool BatchDive::explore(const std::vector<int>& roots, int depth, Incumbent& incumbent, const std::atomic<bool>& stop,
                        std::atomic<std::uint64_t>& live, std::uint64_t& nodes) {
  for (Level& level : levels_) level.resize(0, n_, 0);
  const std::size_t count = depth ? roots.size() / std::size_t(depth) : 1;
  Level& top = levels_[std::size_t(depth)];
  top.locs = roots;
  top.floors.assign(count, kNoFloor);
  top.orders.clear();
  for (std::size_t k = 0; k < count; ++k) top.orders.insert(top.orders.end(), order_.begin(), order_.end());
  const std::size_t batch = std::max<std::size_t>(1, evaluator_.batch_nodes());
  for (;;) {
    int d = n_ - 1;
    while (d >= depth && levels_[std::size_t(d)].size() == 0) --d;
    if (d < depth) return true;
    if (stop.load(std::memory_order_relaxed)) return false;
    Level& level = levels_[std::size_t(d)];
    // The last nodes of the deepest depth (depth first); their children go to the depth below, empty now.
    const std::size_t take = std::min(batch, level.size()), first = level.size() - take;
    const std::int64_t best = incumbent.cost();
    NodeBatch b;
    b.depth = d;
    b.nodes = take;
    b.orders = level.orders.data() + first * std::size_t(n_);
    b.locs = level.locs.data() + first * std::size_t(d);
    b.floors = level.floors.data() + first;
    b.best = best;
    b.reduced_cost_pruning = reduced_cost_pruning_;
    evaluator_.evaluate(b, result_);
    if (d > depth) {
      nodes += take;
      live += take;
    }
    if (d == n_ - 1) {
      for (std::size_t k = 0; k < take; ++k)
        if (result_.bounds[k] < incumbent.cost())
          offer_leaf(b.orders + k * std::size_t(n_), b.locs + k * std::size_t(d), result_.bounds[k], incumbent);
    } else {
      branch(d, first, result_, best);
    }
    level.resize(first, n_, d);
  }
}

// The children of the evaluated nodes (from `first` of depth d) below the incumbent, onto depth d + 1.
void BatchDive::branch(int d, std::size_t first, const NodeBatchResult& result, std::int64_t best) {
  const Level& level = levels_[std::size_t(d)];
  Level& next = levels_[std::size_t(d) + 1];
  const int m = n_ - d;
  std::vector<int> free_loc(static_cast<std::size_t>(m));
  for (std::size_t k = 0; k < result.bounds.size(); ++k) {
    const int line = result.lines[k];
    if (result.bounds[k] >= best || line == kNoBranch) continue;
    const int* order = level.orders.data() + (first + k) * std::size_t(n_);
    const int* locs = level.locs.data() + (first + k) * std::size_t(d);
    std::fill(used_.begin(), used_.end(), 0);
    for (int a = 0; a < d; ++a) used_[std::size_t(locs[a])] = 1;
    for (int l = 0, c = 0; l < n_; ++l)
      if (!used_[std::size_t(l)]) free_loc[std::size_t(c++)] = l;
    for (int j = 0; j < m; ++j) {
      const std::int64_t lower = result.lowers[k * std::size_t(m) + std::size_t(j)];
      if (reduced_cost_pruning_ && lower >= best) continue;
      int r = 0, c = 0;
      gl_branch_child(line, m, j, r, c);
      const std::size_t at = next.size();
      next.resize(at + 1, n_, d + 1);
      int* child_order = next.orders.data() + at * std::size_t(n_);
      std::copy_n(order, n_, child_order);
      std::swap(child_order[d], child_order[d + r]);
      int* child_locs = next.locs.data() + at * std::size_t(d + 1);
      std::copy_n(locs, d, child_locs);
      child_locs[d] = free_loc[std::size_t(c)];
      next.floors[at] = reduced_cost_pruning_ ? lower : kNoFloor;
    }
  }
}

void BatchDive::offer_leaf(const int* order, const int* locs, std::int64_t cost, Incumbent& incumbent) const {
  std::vector<char> used(static_cast<std::size_t>(n_), 0);
  std::vector<int> location_of(static_cast<std::size_t>(n_));
  for (int k = 0; k < n_ - 1; ++k) {
    used[std::size_t(locs[k])] = 1;
    location_of[std::size_t(order[k])] = locs[k];
  }
  location_of[std::size_t(order[n_ - 1])] = int(std::find(used.begin(), used.end(), 0) - used.begin());
  incumbent.offer(cost, location_of);
}

}  // namespace ks::topo
