#pragma once
// Nodes of the branch-and-bound tree evaluated many at once (gl_evaluate_node, gl_branch.hpp, on each): the
// interface the batch dive (batch_dive.hpp) feeds, implemented on the GPU (bound_batch_cuda.hpp: a warp per
// node) and here on the calling CPU thread (for tests, and the reference the GPU is compared with). No CUDA
// headers.
#include <cstdint>
#include <string>
#include <vector>

namespace ks::topo {

// `nodes` nodes of one depth: each fixes the locations of the first `depth` facilities of its own order.
struct NodeBatch {
  int depth = 0;
  std::size_t nodes = 0;
  const int* orders = nullptr;           // nodes x n
  const int* locs = nullptr;             // nodes x depth
  const std::int64_t* floors = nullptr;  // nodes: what the parent's reduced costs proved
  std::int64_t best = 0;                 // the incumbent's cost: what to branch on depends on it
  bool reduced_cost_pruning = true;
};

struct NodeBatchResult {
  std::vector<std::int64_t> bounds;  // nodes
  std::vector<int> lines;            // nodes: the branch (gl_choose_branch), kNoBranch for none
  std::vector<std::int64_t> lowers;  // nodes x (n - depth): the children's lower bounds along the branch
};

// Where an evaluator's time went, for the report: what bounds a proof (the GPU, or the thread feeding it).
struct EvaluatorTime {
  std::uint64_t batches = 0, nodes = 0;
  double evaluate_s = 0;  // in evaluate(), copies and waiting included
  double device_s = 0;    // of it, the device's kernels (CUDA events); 0 on the CPU
};

class NodeEvaluator {
 public:
  virtual ~NodeEvaluator() = default;
  NodeEvaluator() = default;
  NodeEvaluator(const NodeEvaluator&) = delete;
  NodeEvaluator& operator=(const NodeEvaluator&) = delete;

  // The problem the next batches belong to (n x n each; copied).
  virtual void load(const std::int64_t* traffic, const std::int64_t* costs, int n) = 0;
  // Evaluates every node of the batch; `out` is resized.
  virtual void evaluate(const NodeBatch& batch, NodeBatchResult& out) = 0;
  // Nodes per call that keep the device busy (the batch dive takes up to this many).
  virtual std::size_t batch_nodes() const = 0;
  virtual std::string device() const = 0;
  // Since the evaluator was made.
  virtual EvaluatorTime time() const { return {}; }
};

// The evaluators' devices for a report, a run of threads feeding the same device said once:
// "GPU 0 (NVIDIA H100) with 4 feeding threads, GPU 1 (NVIDIA H100) with 4 feeding threads".
std::string describe_evaluators(const std::vector<NodeEvaluator*>& evaluators);

// On the calling thread, node after node.
class CpuNodeEvaluator final : public NodeEvaluator {
 public:
  explicit CpuNodeEvaluator(std::size_t batch_nodes = 256) : batch_nodes_(batch_nodes) {}
  void load(const std::int64_t* traffic, const std::int64_t* costs, int n) override;
  void evaluate(const NodeBatch& batch, NodeBatchResult& out) override;
  std::size_t batch_nodes() const override { return batch_nodes_; }
  std::string device() const override { return "CPU batch"; }
  EvaluatorTime time() const override { return time_; }

 private:
  std::size_t batch_nodes_;
  EvaluatorTime time_;
  int n_ = 0;
  std::vector<std::int64_t> traffic_, costs_, scratch_;
};

}  // namespace ks::topo
