#include "topo/bnb/batch_dive.hpp"

#include <algorithm>
#include <limits>

#include "topo/bnb/gl_branch.hpp"

namespace ks::topo {

namespace {

constexpr std::int64_t kNoFloor = std::numeric_limits<std::int64_t>::min();
// A dive gives away only nodes with at least this many free facilities: a smaller subtree costs its taker
// more in waiting and copying than it saves.
constexpr int kFewestFreeToGive = 4;

}  // namespace

DivePiece frontier_piece(std::shared_ptr<DiveGroup> group, const std::vector<int>& order, int frontier_depth,
                         const std::vector<int>& prefixes) {
  DivePiece piece;
  piece.depth = frontier_depth;
  const int n = int(order.size());
  const std::size_t width = std::size_t(frontier_depth);
  for (std::size_t root = 0; root < group->roots(); ++root)
    piece.nodes.push(order.data(), prefixes.data() + group->subtree(root) * width, kNoFloor, int(root), n,
                     frontier_depth);
  piece.group = std::move(group);
  return piece;
}

void BatchDive::RootChanges::add(std::size_t root, std::int64_t open_change, std::uint64_t counted) {
  if (!marked[root]) {
    marked[root] = 1;
    touched.push_back(root);
  }
  open[root] += open_change;
  nodes[root] += counted;
}

BatchDive::BatchDive(NodeEvaluator& evaluator, int n, int frontier_depth, bool reduced_cost_pruning, DivePile* pile,
                     Finished finished)
    : evaluator_(evaluator), n_(n), frontier_depth_(frontier_depth), reduced_cost_pruning_(reduced_cost_pruning),
      pile_(pile), finished_(std::move(finished)), levels_(std::size_t(n) + 1), used_(std::size_t(n)),
      free_loc_(std::size_t(n)) {}

bool BatchDive::explore(DivePiece piece, Incumbent& incumbent, const std::atomic<bool>& stop,
                        std::atomic<std::uint64_t>& live) {
  const std::shared_ptr<DiveGroup> group = piece.group;
  const int start = piece.depth;
  for (DiveNodes& level : levels_) level.resize(0, n_, 0);
  levels_[std::size_t(start)] = std::move(piece.nodes);
  changes_.open.assign(group->roots(), 0);
  changes_.nodes.assign(group->roots(), 0);
  changes_.marked.assign(group->roots(), 0);
  changes_.touched.clear();
  const std::size_t batch = std::max<std::size_t>(1, evaluator_.batch_nodes());
  for (;;) {
    int d = n_ - 1;
    while (d >= start && levels_[std::size_t(d)].size() == 0) --d;
    if (d < start) return true;
    if (stop.load(std::memory_order_relaxed)) return false;
    DiveNodes& level = levels_[std::size_t(d)];
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
    const std::uint64_t counted = d > frontier_depth_ ? 1 : 0;  // the frontier's roots were counted with it
    if (counted) live += take;
    for (std::size_t k = 0; k < take; ++k) {
      std::int64_t kept = 0;
      if (d == n_ - 1) {
        if (result_.bounds[k] < incumbent.cost())
          offer_leaf(b.orders + k * std::size_t(n_), b.locs + k * std::size_t(d), result_.bounds[k], incumbent);
      } else {
        kept = branch(d, first, k, result_, best);
      }
      changes_.add(std::size_t(level.roots[first + k]), kept - 1, counted);
    }
    level.resize(first, n_, d);
    apply(*group);
    if (pile_ != nullptr && pile_->wanted()) give_part(group, start);
  }
}

// Node `first + k` of depth d: its children below the incumbent onto depth d + 1; returns how many.
std::int64_t BatchDive::branch(int d, std::size_t first, std::size_t k, const NodeBatchResult& result,
                               std::int64_t best) {
  const int line = result.lines[k];
  if (result.bounds[k] >= best || line == kNoBranch) return 0;
  const DiveNodes& level = levels_[std::size_t(d)];
  DiveNodes& next = levels_[std::size_t(d) + 1];
  const int m = n_ - d;
  const int* order = level.orders.data() + (first + k) * std::size_t(n_);
  const int* locs = level.locs.data() + (first + k) * std::size_t(d);
  const int root = level.roots[first + k];
  std::fill(used_.begin(), used_.end(), 0);
  for (int a = 0; a < d; ++a) used_[std::size_t(locs[a])] = 1;
  for (int l = 0, c = 0; l < n_; ++l)
    if (!used_[std::size_t(l)]) free_loc_[std::size_t(c++)] = l;
  std::int64_t kept = 0;
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
    child_locs[d] = free_loc_[std::size_t(c)];
    next.floors[at] = reduced_cost_pruning_ ? lower : kNoFloor;
    next.roots[at] = root;
    ++kept;
  }
  return kept;
}

void BatchDive::apply(DiveGroup& group) {
  for (const std::size_t root : changes_.touched) {
    if (group.update(root, changes_.open[root], changes_.nodes[root])) finished_(group, root);
    changes_.open[root] = 0;
    changes_.nodes[root] = 0;
    changes_.marked[root] = 0;
  }
  changes_.touched.clear();
}

// The first half of the shallowest depth's nodes (those this dive would reach last), or all of them when it has
// one and deeper nodes are left to this dive.
void BatchDive::give_part(const std::shared_ptr<DiveGroup>& group, int start) {
  int d = start;
  while (d < n_ && levels_[std::size_t(d)].size() == 0) ++d;
  if (n_ - d < kFewestFreeToGive) return;
  DiveNodes& level = levels_[std::size_t(d)];
  bool deeper = false;
  for (int e = d + 1; e < n_ && !deeper; ++e) deeper = levels_[std::size_t(e)].size() > 0;
  const std::size_t count = level.size() >= 2 ? level.size() / 2 : (deeper ? level.size() : 0);
  if (count == 0) return;
  DivePiece piece;
  piece.group = group;
  piece.depth = d;
  level.move_front(count, n_, d, piece.nodes);
  pile_->give(std::move(piece));
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
