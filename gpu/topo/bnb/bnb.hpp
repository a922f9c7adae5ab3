#pragma once
// Branch and bound over placements: proves which placement is optimal (or how far the best found can be from
// optimal, when stopped early), with the Gilmore-Lawler bound (gl_bound.hpp). No Qt, no GL, no CUDA headers.
//
//   BnbRequest req;                        // CPU, no time limit
//   BnbResult r = prove(problem, req, control, pool);
//   r.best().proof.optimal                 // true: no placement costs less than r.best().best
//
// What is proved: as the search (search.hpp), the summed traffic when there are several timestamps (the cost
// is linear in the traffic, so the sum over time of flow x distance is one QAP), else the only timestamp; one
// proof per configuration, each configuration's best placement with its cost on every timestamp.
//
// The tree: facilities (nodes) are fixed one at a time, each to every free location (position). Down to
// `frontier_depth` the facilities come in a branching order (largest total traffic first); the subtrees there are
// the units of work: threads take them in order of their bound (lowest first) from a shared counter and explore
// each depth first, so that memory stays O(n^3) per thread. In a dive each node branches on the free facility or
// free location that leaves the fewest children under the incumbent, by its LAP's reduced costs; a child is
// pruned with the parent's bound plus its reduced cost before its own bound is computed, and the children are
// tried cheapest first (docs/PERF.md measures what that saves). The incumbent comes from a short tabu search first.
//
// Determinism: bounds are exact integers; with the search's incumbent already optimal (the usual case) the
// nodes explored do not depend on the threads or their timing, so a run and a resumed run count the same.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/thread_pool.hpp"
#include "topo/bnb/node_batch.hpp"
#include "topo/bnb/tree_estimate.hpp"
#include "topo/evaluation.hpp"
#include "topo/problem.hpp"

namespace ks::topo {

class ProofRanks;     // bnb_ranks.hpp

// Past this many nodes a proof is out of reach (nug30 took ~96 000 CPU-hours); without a time limit the
// request is refused above kMaxBnbUnlimitedNodes.
inline constexpr int kMaxBnbNodes = 64;
inline constexpr int kMaxBnbUnlimitedNodes = 24;

struct BnbRequest {
  double time_s = 0;                // > 0: stop after this long (the incumbent and the gap are kept)
  std::uint64_t search_iterations = 0;  // tabu iterations per chain for the incumbent; 0: 1000 x n
  bool reduced_cost_pruning = true;  // prune children with the parent's reduced costs first (measurements)
  // Checkpoints: the state is written atomically here every `checkpoint_every_s` and when the run stops.
  std::string checkpoint;
  double checkpoint_every_s = 5;
  std::string resume;  // a checkpoint to continue from (usage Error when it belongs to another problem)
  std::string label;   // what is proved ("nug12.dat"), for checkpoints and their messages
  // Evaluators (a GPU's feeding threads, gpu_feeders.hpp; several GPUs, --gpus 0,1): the pool's threads 0, 1, ...
  // feed one each batches of nodes of groups of subtrees, all taking groups from the same queue, while the
  // others dive as without (the same tree: a resumed run may change it). The pool needs a thread per evaluator.
  // Not owned.
  std::vector<NodeEvaluator*> evaluators;

  // Rank 0 of an MPI run (mpirun -np N): the other ranks (serve_proof, bnb_ranks.hpp) take subtrees too; this
  // process keeps the checkpoint and the result. prove() stops them before it returns or throws. Not owned.
  ProofRanks* ranks = nullptr;

  // `evaluators`, for a pool of `threads`: Internal Error for a null one, usage Error for more than `threads`.
  std::vector<NodeEvaluator*> devices_for(std::size_t threads) const;
};

// Threads feeding each of `gpus` GPUs out of a pool of `threads` when the user does not say (--feeders): every
// thread feeds, up to 16 a GPU, at least one. A thread feeding a GPU proves 20 to 40 times more nodes a second
// than one diving on the CPU, and one feeding thread leaves its GPU idle while it branches the last batch's nodes
// (the rate per GPU grows up to 16 threads, docs/PERF.md); the threads left over dive.
int default_feeders_per_gpu(std::size_t threads, std::size_t gpus);

struct BnbProof {
  bool optimal = false;    // every subtree explored: best_bound equals the best cost
  std::uint64_t nodes = 0; // bounds computed (frontier and explored subtrees; the subtrees a stop cut short
                           // are not counted, they are explored again on resume)
  Cost root_bound, best_bound;  // best_bound: no placement costs less (the incumbent once optimal)
  double seconds = 0;      // over every session of a resumed run
};

struct GapPoint {
  double time_s = 0;  // since the configuration's proof started (sessions added up)
  std::uint64_t nodes = 0;
  Cost bound, incumbent;
};

struct ConfigurationProof {
  int configuration = 0;
  Cost best;                      // on the proved slice, from the definition
  std::vector<int> placement;     // node at each position
  std::vector<Cost> slice_costs;  // the placement's cost on every slice (timestamps, then the sum)
  Cost search_best;               // the tabu search's incumbent it started from
  BnbProof proof;
  int frontier_depth = 0;
  std::uint64_t subtrees = 0;     // below the frontier
  std::vector<GapPoint> curve;    // bound and incumbent over time
};

struct BnbResult {
  const Problem* problem = nullptr;  // (must outlive the result)
  int slice = 0;                     // the proved slice
  bool exact = true;
  int decimals = 0;
  bool complete = true;              // false: stopped before every configuration was proved
  std::string stopped_by;            // "", "cancel", "time"
  std::string device;                // "CPU (N threads)", "+ <GPU> (batches)" with an evaluator ("+ <GPU>, <GPU>
                                     // (batches)" with several)
  int threads = 1;
  std::vector<ConfigurationProof> configurations;
  int best_configuration = 0;
  double seconds = 0;                // this session's wall time
  double search_seconds = 0;         // of it, the tabu search for the incumbents (none on resume)
  double nodes_per_second = 0;       // this session's
  int sessions = 1;                  // > 1 when resumed
  std::string checkpoint;            // the checkpoint written when stopped (empty: none)
  std::vector<std::string> notes;
  // This process's feeding threads, in the order of `evaluators`: each one's batches and where its time went.
  struct Feeder {
    std::string device;
    EvaluatorTime time;
  };
  std::vector<Feeder> feeders;
  // Parts of their subtrees that feeding threads gave to idle ones once none was left to take (dive_pile.hpp).
  std::uint64_t shared_pieces = 0;

  const ConfigurationProof& best() const { return configurations.at(std::size_t(best_configuration)); }
  // Over the configurations: optimal when each is; nodes and seconds added (the search's too); the lowest
  // bounds.
  BnbProof overall() const;
};

struct BnbProgress {
  int configuration = 0, configurations = 1;
  double elapsed_s = 0;       // this configuration's, sessions added up
  std::uint64_t nodes = 0;    // bounds computed so far (subtrees under way included)
  std::uint64_t open = 0;     // subtrees not yet explored
  std::uint64_t subtrees = 0;
  Cost bound, incumbent;
  double fraction = 0;        // of this configuration's subtrees done (an estimate of the work done)
  const std::vector<GapPoint>* curve = nullptr;  // valid during the call
};

struct BnbControl {
  std::function<void(const BnbProgress&)> progress;  // from the calling thread, about ten times a second
  const std::atomic<bool>* cancel = nullptr;          // stop soon: the incumbent and the gap are kept
};

// Usage Errors before any work: real-valued costs (the proof needs exact integers), n < 2, n > kMaxBnbNodes,
// n > kMaxBnbUnlimitedNodes without a time limit, a checkpoint of another problem, more evaluators than threads.
BnbResult prove(const Problem& problem, const BnbRequest& request, const BnbControl& control, ThreadPool& pool);
// Whether prove() takes this problem without a time limit (none of the Usage Errors above about the problem):
// what the app asks before it offers a proof instead of a long sweep.
bool provable_without_time_limit(const Problem& problem);

// Before a proof: how many nodes it will explore (tree_estimate.hpp), per configuration, with the incumbent the
// proof would start from (the same tabu search). The usage Errors of prove() about the problem.
struct ProofEstimate {
  int configuration = 0;
  Cost incumbent;
  TreeEstimate tree;
};
struct BnbEstimate {
  std::vector<ProofEstimate> configurations;
  double search_seconds = 0, seconds = 0;  // the incumbents' search; everything
};
BnbEstimate estimate_proof(const Problem& problem, const BnbRequest& request, int probes, ThreadPool& pool);

// The result in the sweep's form (mode Given: one placement per configuration, every slice's cost), so that
// the sweep's views and CSV show it.
EvalResult as_eval_result(const BnbResult& r);

// ---- the tree, for tests and the CUDA batch ----
// Facilities by total traffic (row + column, diagonal excluded), largest first, ties by number.
std::vector<int> branching_order(const std::int64_t* traffic, int n);
// The bounds of many nodes at once, each `depth` locations of the first facilities of its order (locs: nodes x
// depth; order: n entries for all nodes, or nodes x n): what the CUDA batch (bound_batch_cuda.hpp) computes on
// the GPU, on the CPU threads here.
std::vector<std::int64_t> gl_bounds(const std::int64_t* traffic, const std::int64_t* costs, int n,
                                    const std::vector<int>& order, const std::vector<int>& locs, int depth,
                                    ThreadPool& pool);

}  // namespace ks::topo
