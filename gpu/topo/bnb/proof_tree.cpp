#include "topo/bnb/proof_tree.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <optional>

#include "core/error.hpp"
#include "topo/bnb/batch_dive.hpp"
#include "topo/bnb/bnb.hpp"
#include "topo/bnb/gl_bound.hpp"
#include "topo/bnb/gl_branch.hpp"

namespace ks::topo {

namespace {

// Subtrees below the frontier: enough that the threads balance (the largest are taken first), few enough that
// computing all their bounds up front stays a small part of the run.
constexpr std::uint64_t kMinSubtrees = 2000;

}  // namespace

void Incumbent::offer(std::int64_t cost, const std::vector<int>& location_of) {
  std::lock_guard lock(mutex_);
  if (cost >= cost_.load()) return;
  location_of_ = location_of;
  cost_.store(cost);
}

std::vector<int> Incumbent::location_of() const {
  std::lock_guard lock(mutex_);
  return location_of_;
}

// A thread's memory for one subtree's dive: per depth the node's reduced costs, its children and the order of
// the facilities.
struct ProofTree::Scratch {
  std::vector<std::int64_t> gl;
  std::vector<std::vector<std::int64_t>> reduced;  // [depth]: m x m
  std::vector<std::vector<std::pair<std::int64_t, int>>> children;  // (lower bound, row x m + column)
  std::vector<std::vector<int>> order;  // [depth]: the facilities, the first `depth` fixed at locs
  std::vector<std::vector<std::int64_t>> linear, free_loc;  // [depth]: C's linear part (m x m), free locations
  std::vector<int> locs;  // location of order[k], k < depth
  std::vector<char> used;

  explicit Scratch(int n)
      : gl(std::size_t(gl_scratch_size(n))), reduced(std::size_t(n) + 1), children(std::size_t(n) + 1),
        order(std::size_t(n) + 1, std::vector<int>(std::size_t(n))),
        linear(std::size_t(n) + 1, std::vector<std::int64_t>(std::size_t(n) * std::size_t(n))),
        free_loc(std::size_t(n) + 1, std::vector<std::int64_t>(std::size_t(n))),
        locs(std::size_t(n)), used(std::size_t(n)) {
    for (int d = 0; d <= n; ++d) {
      reduced[std::size_t(d)].resize(std::size_t(n - d) * std::size_t(n - d));
      children[std::size_t(d)].reserve(std::size_t(n - d));
    }
  }
};

ProofTree::ProofTree(const std::int64_t* traffic, const std::int64_t* costs, int n, bool reduced_cost_pruning)
    : n_(n),
      traffic_(traffic, traffic + std::size_t(n) * std::size_t(n)),
      costs_(costs, costs + std::size_t(n) * std::size_t(n)),
      order_(branching_order(traffic, n)),
      reduced_cost_pruning_(reduced_cost_pruning) {
  std::uint64_t count = std::uint64_t(n);
  depth_ = 1;
  while (depth_ < n - 1 && count < kMinSubtrees) count *= std::uint64_t(n - depth_++);
}

void ProofTree::build_frontier(ThreadPool& pool) {
  root_bound_ = gl_bounds(traffic_.data(), costs_.data(), n_, order_, {}, 0, pool).front();
  // Every placement of the first depth_ facilities, in lexicographic order of their locations.
  prefixes_.clear();
  std::vector<int> prefix(std::size_t(depth_), 0);
  std::vector<char> used(std::size_t(n_), 0);
  const auto walk = [&](auto&& self, int k) -> void {
    if (k == depth_) {
      prefixes_.insert(prefixes_.end(), prefix.begin(), prefix.end());
      return;
    }
    for (int l = 0; l < n_; ++l) {
      if (used[std::size_t(l)]) continue;
      used[std::size_t(l)] = 1;
      prefix[std::size_t(k)] = l;
      self(self, k + 1);
      used[std::size_t(l)] = 0;
    }
  };
  walk(walk, 0);
  bounds_ = gl_bounds(traffic_.data(), costs_.data(), n_, order_, prefixes_, depth_, pool);
  taken_in_.resize(bounds_.size());
  std::iota(taken_in_.begin(), taken_in_.end(), 0u);
  std::stable_sort(taken_in_.begin(), taken_in_.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return bounds_[a] < bounds_[b]; });
  done_ = std::vector<std::atomic<std::uint8_t>>(bounds_.size());
  ends_.reset(std::uint32_t(taken_in_.size()));
}

void ProofTree::mark_done(const std::vector<std::uint8_t>& done, const Incumbent& incumbent) {
  const std::int64_t best = incumbent.cost();
  for (std::size_t k = 0; k < bounds_.size(); ++k)
    done_[k] = (k < done.size() && done[k]) || bounds_[k] >= best;
}

std::int64_t ProofTree::open_bound(const Incumbent& incumbent) const {
  for (std::uint32_t k : taken_in_)
    if (!done_[k].load()) return std::min(bounds_[k], incumbent.cost());
  return incumbent.cost();
}

std::uint64_t ProofTree::open_subtrees() const {
  std::uint64_t open = 0;
  for (const auto& d : done_) open += !d.load();
  return open;
}

std::vector<std::uint8_t> ProofTree::done() const {
  std::vector<std::uint8_t> out(done_.size());
  for (std::size_t k = 0; k < done_.size(); ++k) out[k] = done_[k].load();
  return out;
}

void ProofTree::finished_state(std::vector<std::uint8_t>& done, std::uint64_t& explored) const {
  std::lock_guard lock(finish_mutex_);
  done = this->done();
  explored = explored_.load();
}

void ProofTree::finish(std::uint32_t subtree, std::uint64_t nodes, SubtreeSource& source, std::size_t handout) {
  source.finished(handout, nodes);  // before it is marked done: a rank reports a hand-out once all of it is
  std::lock_guard lock(finish_mutex_);
  explored_ += nodes;
  done_[subtree] = 1;
}

namespace {

// One process's (and rank 0's) subtrees by bound, through the ends that ProofTree::claim takes from too.
class QueueSource final : public SubtreeSource {
 public:
  QueueSource(const std::vector<std::uint32_t>& queue, QueueEnds& ends) : queue_(queue), ends_(ends) {}
  bool take(std::size_t count, std::vector<std::uint32_t>& out, std::size_t& handout) override {
    std::uint32_t first = 0, last = 0;
    if (!ends_.take_front(std::uint32_t(count), first, last)) return false;
    return hand_out(first, last, out, handout);
  }
  bool take_last(std::size_t count, std::vector<std::uint32_t>& out, std::size_t& handout) override {
    std::uint32_t first = 0, last = 0;
    if (!ends_.take_back(std::uint32_t(count), first, last)) return false;
    return hand_out(first, last, out, handout);
  }
  void finished(std::size_t, std::uint64_t) override {}  // counted in ProofTree::explored_nodes
  void close() override {}                               // never waits

 private:
  bool hand_out(std::uint32_t first, std::uint32_t last, std::vector<std::uint32_t>& out, std::size_t& handout) {
    out.assign(queue_.begin() + std::ptrdiff_t(first), queue_.begin() + std::ptrdiff_t(last));
    handout = 0;
    return true;
  }
  const std::vector<std::uint32_t>& queue_;
  QueueEnds& ends_;
};

}  // namespace

void ProofTree::explore(ThreadPool& pool, Incumbent& incumbent, const std::atomic<bool>& stop,
                        const std::vector<NodeEvaluator*>& evaluators) {
  QueueSource queue(taken_in_, ends_);
  run_queue(pool, queue, incumbent, stop, evaluators);
}

bool ProofTree::still_open(std::uint32_t subtree, const Incumbent& incumbent) {
  if (done_[subtree].load()) return false;
  if (bounds_[subtree] < incumbent.cost()) return true;
  done_[subtree] = 1;  // the incumbent prunes it whole
  return false;
}

std::vector<std::uint32_t> ProofTree::claim(std::size_t count, const Incumbent& incumbent) {
  std::vector<std::uint32_t> out;
  std::uint32_t k = 0, end = 0;
  while (out.size() < count && ends_.take_front(1, k, end))
    if (still_open(taken_in_[k], incumbent)) out.push_back(taken_in_[k]);
  return out;
}

void ProofTree::finished_elsewhere(const std::vector<std::uint32_t>& subtrees, std::uint64_t nodes) {
  std::lock_guard lock(finish_mutex_);
  for (std::uint32_t subtree : subtrees)
    if (subtree < done_.size()) done_[subtree] = 1;
  explored_ += nodes;
}

void ProofTree::explore_feed(ThreadPool& pool, SubtreeFeed& feed, Incumbent& incumbent, const std::atomic<bool>& stop,
                             const std::vector<NodeEvaluator*>& evaluators) {
  run_queue(pool, feed, incumbent, stop, evaluators);
}

bool ProofTree::all_done(const std::vector<std::uint32_t>& subtrees) const {
  for (std::uint32_t subtree : subtrees)
    if (subtree >= done_.size() || !done_[subtree].load()) return false;
  return true;
}

void ProofTree::run_queue(ThreadPool& pool, SubtreeSource& source, Incumbent& incumbent, const std::atomic<bool>& stop,
                          const std::vector<NodeEvaluator*>& evaluators) {
  const long long threads = pool.size();
  if (evaluators.size() > std::size_t(threads))
    throw Error(ErrorKind::Internal, fmt::format("ProofTree::explore: {} evaluators on {} threads (one feeds each)",
                                                 evaluators.size(), threads));
  DivePile pile;
  pool.parallel_for(0, threads, [&](long long begin, long long end) {
    for (long long t = begin; t < end; ++t) {
      try {
        if (std::size_t(t) < evaluators.size()) {
          explore_batches(*evaluators[std::size_t(t)], source, pile, incumbent, stop);
          continue;
        }
        Scratch scratch(n_);
        std::vector<std::uint32_t> taken;
        std::size_t handout = 0;
        // Beside GPUs, a diving thread takes from the queue's other end: the highest bounds, the smallest
        // subtrees in practice, so that none of the largest waits on a CPU thread at the end.
        const bool from_back = !evaluators.empty();
        while (!stop.load(std::memory_order_relaxed) && !batch_failed_.load(std::memory_order_relaxed)) {
          if (!(from_back ? source.take_last(1, taken, handout) : source.take(1, taken, handout))) break;
          const std::uint32_t subtree = taken.front();
          if (done_[subtree].load()) continue;
          std::uint64_t nodes = 0;
          if (explore_subtree(subtree, incumbent, stop, scratch, nodes)) finish(subtree, nodes, source, handout);
        }
      } catch (...) {
        // The divers and the other devices stop too (those waiting for more subtrees as well): the error ends
        // the run (its last checkpoint is kept).
        batch_failed_ = true;
        source.close();
        throw;
      }
    }
  });
  shared_ += pile.given();
}

// Takes kSubtreesPerGroup subtrees at a time from the source and explores them together in batches; once the
// source has none left, takes the parts of other threads' groups that they give (dive_pile.hpp). A subtree is
// done when its last open node is evaluated, by whichever thread.
void ProofTree::explore_batches(NodeEvaluator& evaluator, SubtreeSource& source, DivePile& pile, Incumbent& incumbent,
                                const std::atomic<bool>& stop) {
  const auto finished = [&](DiveGroup& group, std::size_t root) {
    finish(group.subtree(root), group.nodes(root), source, group.handout());
  };
  BatchDive dive(evaluator, n_, depth_, reduced_cost_pruning_, &pile, finished);
  std::vector<std::uint32_t> taken, group;
  std::size_t handout = 0;
  // Another device's error (batch_failed_) ends the run: this one stops too.
  while (!stop.load(std::memory_order_relaxed) && !batch_failed_.load(std::memory_order_relaxed)) {
    DivePiece piece;
    std::optional<DivePileWork> work(std::in_place, pile);
    if (source.take(kSubtreesPerGroup, taken, handout)) {
      group.clear();
      for (const std::uint32_t subtree : taken)
        if (still_open(subtree, incumbent)) group.push_back(subtree);
      if (group.empty()) continue;
      piece = frontier_piece(std::make_shared<DiveGroup>(group, handout), order_, depth_, prefixes_);
    } else {
      work.reset();
      if (!pile.wait(piece, stop, batch_failed_)) return;
      work.emplace(pile, true);
    }
    if (!dive.explore(std::move(piece), incumbent, stop, live_)) return;
  }
}

// s.locs holds the first n - 1 facilities' locations: the last takes the one left.
void ProofTree::offer_completion(std::int64_t cost, const int* order, Incumbent& incumbent, Scratch& s) const {
  std::vector<char> used(static_cast<std::size_t>(n_), 0);
  for (int k = 0; k < n_ - 1; ++k) used[std::size_t(s.locs[std::size_t(k)])] = 1;
  s.locs[std::size_t(n_ - 1)] = int(std::find(used.begin(), used.end(), 0) - used.begin());
  std::vector<int> location_of(static_cast<std::size_t>(n_));
  for (int k = 0; k < n_; ++k) location_of[std::size_t(order[k])] = s.locs[std::size_t(k)];
  incumbent.offer(cost, location_of);
}

// true when the subtree was explored to the end (false: stopped).
bool ProofTree::explore_subtree(std::size_t subtree, Incumbent& incumbent, const std::atomic<bool>& stop,
                                Scratch& s, std::uint64_t& nodes) {
  const std::int64_t bound = bounds_[subtree];
  std::copy_n(prefixes_.begin() + std::ptrdiff_t(subtree * std::size_t(depth_)), depth_, s.locs.begin());
  if (bound >= incumbent.cost()) return true;
  bool finished = true;
  if (n_ - depth_ == 1) {
    offer_completion(bound, order_.data(), incumbent, s);  // one free facility: the bound is the cost of the only completion
  } else {
    // The root's reduced costs again (the frontier kept only its bound). Below the frontier each node
    // chooses what to branch on, so each depth keeps its own order of the facilities.
    s.order[std::size_t(depth_)] = order_;
    std::int64_t* free_loc = s.free_loc[std::size_t(depth_)].data();
    std::int64_t* linear = s.linear[std::size_t(depth_)].data();
    std::fill(s.used.begin(), s.used.end(), 0);
    for (int k = 0; k < depth_; ++k) s.used[std::size_t(s.locs[std::size_t(k)])] = 1;
    for (int l = 0, c = 0; l < n_; ++l)
      if (!s.used[std::size_t(l)]) free_loc[c++] = l;
    gl_linear(n_, traffic_.data(), costs_.data(), order_.data(), s.locs.data(), depth_, free_loc, linear);
    gl_bound_from_linear(n_, traffic_.data(), costs_.data(), order_.data(), s.locs.data(), depth_, free_loc, linear,
                         s.gl.data(), s.reduced[std::size_t(depth_)].data());
    finished = explore_node(depth_, bound, incumbent, stop, s, nodes);
  }
  live_ += nodes % 64;
  return finished;
}

bool ProofTree::explore_node(int depth, std::int64_t bound, Incumbent& incumbent, const std::atomic<bool>& stop,
                             Scratch& s, std::uint64_t& nodes) {
  const int m = n_ - depth;
  const std::int64_t* reduced = s.reduced[std::size_t(depth)].data();
  const std::int64_t best = incumbent.cost();
  // What to branch on: with reduced-cost pruning, the free facility (row) or free location (column) that leaves
  // the fewest children below the incumbent (none: the node is done); without, the next facility in order.
  const int line = gl_choose_branch(reduced, m, bound, best, reduced_cost_pruning_);
  if (line == kNoBranch) return true;
  auto& children = s.children[std::size_t(depth)];
  children.clear();
  for (int k = 0; k < m; ++k) {
    int r = 0, c = 0;
    gl_branch_child(line, m, k, r, c);
    children.push_back({bound + reduced[r * m + c], r * m + c});
  }
  std::sort(children.begin(), children.end());  // cheapest first
  const int* order = s.order[std::size_t(depth)].data();
  int* child_order = s.order[std::size_t(depth) + 1].data();
  const std::int64_t* free_loc = s.free_loc[std::size_t(depth)].data();
  std::int64_t* child_free = s.free_loc[std::size_t(depth) + 1].data();
  std::int64_t* child_linear = s.linear[std::size_t(depth) + 1].data();
  for (const auto& [lower, cell] : children) {
    if (stop.load(std::memory_order_relaxed) || batch_failed_.load(std::memory_order_relaxed)) return false;
    if (reduced_cost_pruning_ && lower >= incumbent.cost()) break;  // sorted: the rest cannot do better
    const int r = cell / m, c = cell % m;
    std::copy_n(order, n_, child_order);
    std::swap(child_order[depth], child_order[depth + r]);
    s.locs[std::size_t(depth)] = int(free_loc[c]);
    for (int k = 0; k < m - 1; ++k) child_free[k] = free_loc[k < c ? k : k + 1];
    gl_child_linear(n_, traffic_.data(), costs_.data(), order, depth, free_loc, s.linear[std::size_t(depth)].data(), r,
                    c, child_linear);
    if (++nodes % 64 == 0) live_ += 64;
    if (m == 2) {
      // The child has one free facility: its bound is the exact cost of the completion.
      const std::int64_t cost = gl_bound_from_linear(n_, traffic_.data(), costs_.data(), child_order, s.locs.data(),
                                                     depth + 1, child_free, child_linear, s.gl.data(), nullptr);
      if (cost < incumbent.cost()) offer_completion(cost, child_order, incumbent, s);
      continue;
    }
    std::int64_t child = gl_bound_from_linear(n_, traffic_.data(), costs_.data(), child_order, s.locs.data(), depth + 1,
                                              child_free, child_linear, s.gl.data(),
                                              s.reduced[std::size_t(depth) + 1].data());
    if (reduced_cost_pruning_) child = std::max(child, lower);
    if (child >= incumbent.cost()) continue;
    if (!explore_node(depth + 1, child, incumbent, stop, s, nodes)) return false;
  }
  return true;
}

}  // namespace ks::topo
