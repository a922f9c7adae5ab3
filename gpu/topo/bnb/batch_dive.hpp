#pragma once
// Subtrees of the branch-and-bound tree explored in batches (node_batch.hpp): the nodes of the deepest open
// depth are evaluated up to a batch at a time, their children below the incumbent kept for the next depth. As
// the CPU dive, depth first (memory: at most a batch's children per depth), the same branching and pruning
// (gl_branch.hpp), so with the same incumbent it computes the bounds of the same nodes. Internal to
// gpu/topo/bnb; ProofTree (proof_tree.hpp) runs it on one of its threads when given an evaluator.
#include <atomic>
#include <cstdint>
#include <vector>

#include "topo/bnb/node_batch.hpp"
#include "topo/bnb/proof_tree.hpp"

namespace ks::topo {

class BatchDive {
 public:
  // The evaluator must have the problem loaded. order: the tree's branching order (n facilities).
  BatchDive(NodeEvaluator& evaluator, int n, std::vector<int> order, bool reduced_cost_pruning);

  // Explores the subtrees whose roots fix the first `depth` facilities of the order at roots (count x depth
  // locations) to the end (true) or until `stop` (false). nodes: bounds computed below the roots (also added
  // to `live` batch by batch).
  bool explore(const std::vector<int>& roots, int depth, Incumbent& incumbent, const std::atomic<bool>& stop,
               std::atomic<std::uint64_t>& live, std::uint64_t& nodes);

 private:
  struct Level {
    std::vector<int> orders, locs;
    std::vector<std::int64_t> floors;
    std::size_t size() const { return floors.size(); }
    void resize(std::size_t nodes, int n, int depth);
  };
  void branch(int depth, std::size_t first, const NodeBatchResult& result, std::int64_t best);
  void offer_leaf(const int* order, const int* locs, std::int64_t cost, Incumbent& incumbent) const;

  NodeEvaluator& evaluator_;
  int n_;
  std::vector<int> order_;
  bool reduced_cost_pruning_;
  std::vector<Level> levels_;  // [depth]: the open nodes
  NodeBatchResult result_;
  std::vector<char> used_;
};

}  // namespace ks::topo
