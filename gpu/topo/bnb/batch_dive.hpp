#pragma once
// Subtrees of the branch-and-bound tree explored in batches (node_batch.hpp): the nodes of the deepest open
// depth are evaluated up to a batch at a time, their children below the incumbent kept for the next depth. As
// the CPU dive, depth first (memory: at most a batch's children per depth), the same branching and pruning
// (gl_branch.hpp), so with the same incumbent it computes the bounds of the same nodes. When a thread waits on
// the DivePile (dive_pile.hpp), the dive gives it part of its open nodes. Internal to gpu/topo/bnb; ProofTree
// (proof_tree.hpp) runs it on the threads that feed evaluators.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "topo/bnb/dive_pile.hpp"
#include "topo/bnb/node_batch.hpp"
#include "topo/bnb/proof_tree.hpp"

namespace ks::topo {

class BatchDive {
 public:
  // Called when a subtree of a group is finished (its last open node evaluated, here or by a piece given away).
  using Finished = std::function<void(DiveGroup& group, std::size_t root)>;

  // The evaluator must have the problem loaded. frontier_depth: the depth of the groups' roots (the nodes
  // below it are counted). pile: where to give work when a thread waits (none: never).
  BatchDive(NodeEvaluator& evaluator, int n, int frontier_depth, bool reduced_cost_pruning, DivePile* pile,
            Finished finished);

  // Explores the piece to the end (true) or until `stop` (false). live: bounds computed below the frontier,
  // added batch by batch.
  bool explore(DivePiece piece, Incumbent& incumbent, const std::atomic<bool>& stop, std::atomic<std::uint64_t>& live);

 private:
  // Evaluated nodes' changes to their roots' open nodes and counts, applied once a batch.
  struct RootChanges {
    std::vector<std::int64_t> open;
    std::vector<std::uint64_t> nodes;
    std::vector<char> marked;  // in touched
    std::vector<std::size_t> touched;
    void add(std::size_t root, std::int64_t open_change, std::uint64_t counted);
  };
  std::int64_t branch(int depth, std::size_t first, std::size_t k, const NodeBatchResult& result, std::int64_t best);
  void offer_leaf(const int* order, const int* locs, std::int64_t cost, Incumbent& incumbent) const;
  void apply(DiveGroup& group);
  void give_part(const std::shared_ptr<DiveGroup>& group, int start);

  NodeEvaluator& evaluator_;
  int n_, frontier_depth_;
  bool reduced_cost_pruning_;
  DivePile* pile_;
  Finished finished_;
  std::vector<DiveNodes> levels_;  // [depth]: the open nodes
  NodeBatchResult result_;
  RootChanges changes_;
  std::vector<char> used_;
  std::vector<int> free_loc_;
};

// A group's roots at the frontier as a piece to explore: each with the tree's order of the facilities, the first
// frontier_depth of them at its subtree's prefix (prefixes: subtrees x frontier_depth locations).
DivePiece frontier_piece(std::shared_ptr<DiveGroup> group, const std::vector<int>& order, int frontier_depth,
                         const std::vector<int>& prefixes);

}  // namespace ks::topo
