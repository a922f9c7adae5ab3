#pragma once
// How many nodes a proof will explore, before it runs: Knuth's random-probe estimate ("Estimating the efficiency
// of backtrack programs", Math. Comp. 29, 1975), counted as the proof counts (proof_tree.hpp): every node of
// its frontier, then the nodes its dive explores below the frontier nodes whose bound is below the incumbent.
// A probe starts at one of those, drawn at random, and goes down as the dive would (the same branching, the
// same children counted, the same pruning by their bounds against the incumbent), but into only one surviving
// child, chosen at random; the product of the survivor counts on the way weights the children counted at each
// depth. The mean over probes is an unbiased estimate for this incumbent (the proof's, once the tabu search
// has found the optimum, as it usually has), their spread gives the standard error.
#include <cstdint>

#include "core/thread_pool.hpp"

namespace ks::topo {

struct TreeEstimate {
  double nodes = 0;           // the mean over the probes
  double standard_error = 0;  // of that mean
  int probes = 0;
};

// traffic, costs: n x n (scaled integers); best: the incumbent's cost. Probe i draws from a generator seeded
// by i, so the estimate is the same for any pool.
TreeEstimate estimate_tree(const std::int64_t* traffic, const std::int64_t* costs, int n, std::int64_t best,
                           bool reduced_cost_pruning, int probes, ThreadPool& pool);

}  // namespace ks::topo
