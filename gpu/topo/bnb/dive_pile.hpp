#pragma once
// How the threads feeding evaluators share a proof's last, largest subtrees (proof_tree.hpp, batch_dive.hpp).
// A feeding thread takes a group of subtrees at once and explores them together. Once no subtree is left to
// take, a thread that runs out of work waits on the DivePile, and the dives still under way give it part of
// their open nodes (a DivePiece), so the last subtrees end on every feeding thread instead of on one each.
// Which thread evaluates a node changes nothing of the tree. A subtree is finished when none of its nodes is
// open anywhere (DiveGroup counts them), so a stop leaves open only the subtrees under way, not whole groups.
// Internal to gpu/topo/bnb.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

namespace ks::topo {

// The subtrees of one take (their roots numbered 0, 1, ... within the group) and, per root, the nodes of its
// subtree still open (the root itself at first) and the bounds computed below the frontier.
class DiveGroup {
 public:
  DiveGroup(std::vector<std::uint32_t> subtrees, std::size_t handout);
  std::size_t roots() const { return subtrees_.size(); }
  std::uint32_t subtree(std::size_t root) const { return subtrees_[root]; }
  std::size_t handout() const { return handout_; }  // SubtreeSource's hand-out the subtrees came from
  // One batch's change to the root's open nodes (children kept less nodes evaluated) and the bounds it
  // computed; true when it closed the root's last open node: its subtree is finished.
  bool update(std::size_t root, std::int64_t open_change, std::uint64_t nodes);
  std::uint64_t nodes(std::size_t root) const { return nodes_[root].load(); }

 private:
  std::vector<std::uint32_t> subtrees_;
  std::size_t handout_;
  std::unique_ptr<std::atomic<std::int64_t>[]> open_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> nodes_;
};

// Open nodes of one depth of the tree: per node the facilities' order (n; the first `depth` fixed), their
// locations (depth), the floor the parent's reduced costs proved and the root (in its group) it descends from.
// The first size() nodes of the arrays are the open ones; the arrays only grow, so that a dive, which adds and
// drops nodes batch after batch, neither reallocates nor clears them.
struct DiveNodes {
  std::vector<int> orders, locs, roots;
  std::vector<std::int64_t> floors;
  std::size_t count = 0;
  std::size_t size() const { return count; }
  void resize(std::size_t nodes, int n, int depth);
  // Appends a node (its order, locations, floor and root).
  void push(const int* order, const int* node_locs, std::int64_t floor, int root, int n, int depth);
  // Moves the first `moved` nodes (those a depth-first dive reaches last) to the end of `to`.
  void move_front(std::size_t moved, int n, int depth, DiveNodes& to);
};

// Nodes of one depth to explore to the end: a group's roots at the frontier, or nodes another dive gave.
struct DivePiece {
  std::shared_ptr<DiveGroup> group;
  int depth = 0;
  DiveNodes nodes;
};

class DivePile {
 public:
  // A thread starts or ends work that could be shared (begin before taking it, so that no waiting thread
  // gives up while another is about to start).
  void begin();
  void end();
  // Whether a dive should give part of its work: a thread waits and no piece is waiting for it.
  bool wanted() const { return waiting_.load(std::memory_order_relaxed) > queued_.load(std::memory_order_relaxed); }
  void give(DivePiece piece);
  // For a thread with nothing left to take: waits for a piece (true; the thread has begun it) until no work
  // is under way that could be shared, `stop` or `failed` (false).
  bool wait(DivePiece& out, const std::atomic<bool>& stop, const std::atomic<bool>& failed);
  int waiting() const { return waiting_.load(); }
  std::uint64_t given() const { return given_.load(); }  // pieces given since made

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<DivePiece> pieces_;
  int active_ = 0;  // threads between begin and end
  std::atomic<int> waiting_{0}, queued_{0};
  std::atomic<std::uint64_t> given_{0};
};

// begin() now, end() when it goes (a thread leaving its work by an exception too).
class DivePileWork {
 public:
  explicit DivePileWork(DivePile& pile, bool begun = false) : pile_(pile) {
    if (!begun) pile_.begin();
  }
  ~DivePileWork() { pile_.end(); }
  DivePileWork(const DivePileWork&) = delete;
  DivePileWork& operator=(const DivePileWork&) = delete;

 private:
  DivePile& pile_;
};

}  // namespace ks::topo
