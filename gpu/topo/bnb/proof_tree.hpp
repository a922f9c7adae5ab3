#pragma once
// One configuration's branch-and-bound tree (bnb.hpp): the frontier of subtrees, their bounds and the order
// they are taken in, the shared incumbent, and the threads that explore the subtrees depth first. Internal to
// gpu/topo/bnb; prove() (bnb_run.cpp) drives it, reports progress and writes checkpoints.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "core/thread_pool.hpp"
#include "topo/bnb/queue_ends.hpp"
#include "topo/bnb/subtree_feed.hpp"

namespace ks::topo {

class NodeEvaluator;
class DivePile;

// The best complete placement known, shared by the threads: read without a lock (the cost), replaced under one.
class Incumbent {
 public:
  Incumbent(std::int64_t cost, std::vector<int> location_of) : cost_(cost), location_of_(std::move(location_of)) {}
  std::int64_t cost() const { return cost_.load(std::memory_order_relaxed); }
  void offer(std::int64_t cost, const std::vector<int>& location_of);
  std::vector<int> location_of() const;  // location (position) of each facility (node)

 private:
  std::atomic<std::int64_t> cost_;
  mutable std::mutex mutex_;
  std::vector<int> location_of_;
};

// Subtrees a batch dive (an evaluator's feeding thread) takes at once: enough roots to fill a GPU batch a few
// depths down; the last groups are shared among the feeding threads (dive_pile.hpp) as they end.
inline constexpr std::size_t kSubtreesPerGroup = 64;

class ProofTree {
 public:
  // traffic, costs: n x n (the proved slice and the configuration's path costs).
  ProofTree(const std::int64_t* traffic, const std::int64_t* costs, int n, bool reduced_cost_pruning);

  int n() const { return n_; }
  const std::int64_t* traffic() const { return traffic_.data(); }
  const std::int64_t* costs() const { return costs_.data(); }
  const std::vector<int>& order() const { return order_; }
  int frontier_depth() const { return depth_; }
  std::uint64_t subtrees() const { return bounds_.size(); }
  std::int64_t root_bound() const { return root_bound_; }

  // Computes every subtree's bound (on the pool) and the order they are taken in. Deterministic.
  void build_frontier(ThreadPool& pool);
  // After build_frontier: subtree s's root (the locations of the first frontier_depth() facilities of order())
  // and its bound.
  const int* subtree_prefix(std::size_t s) const { return prefixes_.data() + s * std::size_t(depth_); }
  std::int64_t subtree_bound(std::size_t s) const { return bounds_[s]; }
  // Marks done the subtrees already done (a checkpoint's) and those the incumbent prunes.
  void mark_done(const std::vector<std::uint8_t>& done, const Incumbent& incumbent);

  // Explores the open subtrees on every thread of the pool until all are done or `stop` is set (the subtrees
  // under way are then left open). With evaluators (their problem loaded; at most one per pool thread), pool
  // thread k feeds evaluator k groups of subtrees (batch_dive.hpp) from the queue's front while the others dive
  // as without, taking from its back (queue_ends.hpp); all take from the same queue, so a faster device takes
  // more. Call from one thread; the getters below may be read meanwhile.
  void explore(ThreadPool& pool, Incumbent& incumbent, const std::atomic<bool>& stop,
               const std::vector<NodeEvaluator*>& evaluators = {});

  // Under MPI (bnb_ranks.hpp). Rank 0: up to `count` open subtrees for another rank, from the counter its own
  // threads take from (lowest bound first; those the incumbent prunes are marked done on the way), and the
  // subtrees that rank finished with the bounds it computed in them. Call while exploring or between.
  std::vector<std::uint32_t> claim(std::size_t count, const Incumbent& incumbent);
  void finished_elsewhere(const std::vector<std::uint32_t>& subtrees, std::uint64_t nodes);
  // Other ranks: explores the subtrees appended to `feed` as explore does its own (the evaluators fed groups of
  // them, each group of one hand-out), until the feed is closed and drained or `stop`; the bounds computed in
  // each finished subtree go to its hand-out (SubtreeFeed::nodes).
  void explore_feed(ThreadPool& pool, SubtreeFeed& feed, Incumbent& incumbent, const std::atomic<bool>& stop,
                    const std::vector<NodeEvaluator*>& evaluators = {});
  // Whether every one of these subtrees is done (an index past the frontier: false).
  bool all_done(const std::vector<std::uint32_t>& subtrees) const;

  // No placement in an open subtree costs less than this (the lowest open bound; the incumbent when none).
  std::int64_t open_bound(const Incumbent& incumbent) const;
  std::uint64_t open_subtrees() const;
  std::vector<std::uint8_t> done() const;
  // done() and explored_nodes() together, as a checkpoint must keep them (no subtree finishing in between).
  void finished_state(std::vector<std::uint8_t>& done, std::uint64_t& explored) const;
  // Bounds computed in finished subtrees (the frontier's excluded), and in all this session (live).
  std::uint64_t explored_nodes() const { return explored_.load(); }
  std::uint64_t live_nodes() const { return live_.load(); }
  void set_explored_nodes(std::uint64_t n) { explored_ = n; }
  // Parts of groups that feeding threads gave to idle ones (dive_pile.hpp), over every exploration.
  std::uint64_t shared_pieces() const { return shared_.load(); }

 private:
  struct Scratch;
  void offer_completion(std::int64_t cost, const int* order, Incumbent& incumbent, Scratch& s) const;
  // Not done and not pruned by the incumbent (then marked done): worth taking.
  bool still_open(std::uint32_t subtree, const Incumbent& incumbent);
  // A subtree explored to the end with `nodes` bounds below its root: counted, reported, marked done.
  void finish(std::uint32_t subtree, std::uint64_t nodes, SubtreeSource& source, std::size_t handout);
  // Threads (and evaluators) take subtrees from the source until it has none left or `stop`.
  void run_queue(ThreadPool& pool, SubtreeSource& source, Incumbent& incumbent, const std::atomic<bool>& stop,
                 const std::vector<NodeEvaluator*>& evaluators);
  void explore_batches(NodeEvaluator& evaluator, SubtreeSource& source, DivePile& pile, Incumbent& incumbent,
                       const std::atomic<bool>& stop);
  // true when explored to the end (false: stopped); `nodes`: the bounds computed in it.
  bool explore_subtree(std::size_t subtree, Incumbent& incumbent, const std::atomic<bool>& stop, Scratch& s,
                       std::uint64_t& nodes);
  bool explore_node(int depth, std::int64_t bound, Incumbent& incumbent, const std::atomic<bool>& stop,
                    Scratch& s, std::uint64_t& nodes);

  int n_;
  std::vector<std::int64_t> traffic_, costs_;
  std::vector<int> order_;
  bool reduced_cost_pruning_;
  int depth_ = 0;
  std::int64_t root_bound_ = 0;
  std::vector<int> prefixes_;             // subtrees x depth_: the fixed locations of each subtree's root
  std::vector<std::int64_t> bounds_;      // per subtree
  std::vector<std::uint32_t> taken_in_;   // subtrees by bound, then number
  std::vector<std::atomic<std::uint8_t>> done_;
  QueueEnds ends_;                        // into taken_in_: what is left to take (threads and claim)
  std::atomic<std::uint64_t> explored_{0}, live_{0}, shared_{0};
  std::atomic<bool> batch_failed_{false};  // an evaluator threw (a GPU error)
  mutable std::mutex finish_mutex_;        // done_ and explored_ change together
};

}  // namespace ks::topo
