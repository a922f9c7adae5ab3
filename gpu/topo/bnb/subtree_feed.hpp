#pragma once
// Where a ProofTree's threads take subtrees from (proof_tree.hpp): one process's (and rank 0's) queue by bound,
// or, on the other ranks of an MPI run (bnb_ranks.cpp), a SubtreeFeed that rank 0's hand-outs (Assigns) are
// appended to while the threads work, so that they go on to the next hand-out without waiting for the slowest
// subtree of the one before (a GPU's group of 64 subtrees, say). Internal to gpu/topo/bnb.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

namespace ks::topo {

class SubtreeSource {
 public:
  virtual ~SubtreeSource() = default;
  // Up to `count` subtrees into `out` (replaced), all of one hand-out (`handout` names it); false when there are
  // none left (the thread returns). May wait for more.
  virtual bool take(std::size_t count, std::vector<std::uint32_t>& out, std::size_t& handout) = 0;
  // As take, for the CPU threads diving beside GPUs: the subtrees the source would hand out last (a feed: in
  // order, as take).
  virtual bool take_last(std::size_t count, std::vector<std::uint32_t>& out, std::size_t& handout) {
    return take(count, out, handout);
  }
  // Subtrees of `handout` were finished, `nodes` bounds computed in them; called before they are marked done.
  virtual void finished(std::size_t handout, std::uint64_t nodes) = 0;
  // No more waiting: a thread finding nothing left returns (the exploration ends, or failed).
  virtual void close() = 0;
};

class SubtreeFeed final : public SubtreeSource {
 public:
  // Appends a hand-out; returns its number (0, 1, ... in order). From one thread, which alone calls subtrees().
  std::size_t append(std::vector<std::uint32_t> subtrees);
  // Takes from the oldest hand-out with subtrees left; waits while there is none and the feed is open.
  bool take(std::size_t count, std::vector<std::uint32_t>& out, std::size_t& handout) override;
  // As take, from the end of that hand-out (its highest bounds: rank 0 hands them out lowest bound first).
  bool take_last(std::size_t count, std::vector<std::uint32_t>& out, std::size_t& handout) override;
  void finished(std::size_t handout, std::uint64_t nodes) override;
  void close() override;

  const std::vector<std::uint32_t>& subtrees(std::size_t handout) const { return handouts_[handout].subtrees; }
  // Bounds computed in the hand-out's finished subtrees.
  std::uint64_t nodes(std::size_t handout) const;

 private:
  struct Handout {
    std::vector<std::uint32_t> subtrees;
    std::size_t taken = 0, back = 0;  // [taken, back) not taken yet
    std::uint64_t nodes = 0;
  };
  // The oldest hand-out with subtrees left (waiting for one while the feed is open); nullptr: none and closed.
  Handout* open_handout(std::unique_lock<std::mutex>& lock);
  mutable std::mutex mutex_;
  std::condition_variable more_;
  std::deque<Handout> handouts_;  // a deque: appending keeps the others where they are
  std::size_t current_ = 0;       // the oldest hand-out with subtrees not taken
  bool closed_ = false;
};

}  // namespace ks::topo
