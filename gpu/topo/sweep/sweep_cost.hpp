#pragma once
// The cost model of a topology sweep, for its point on the roofline.
//
// Operations: the definition's, 2·n² per evaluation (cost = Σ_ij D[i][j]·T[p(i)][p(j)]: n² multiply-adds,
// each counted as 2 operations). The delta variants reach a placement's cost in far fewer (an O(n) or O(1)
// update per swap), so for them these are *equivalent* operations: the rate at which the definition would
// have had to run to evaluate as many placements. That is what compares variants and backends fairly, and it
// can exceed the FMA roof (that is the point of the delta method). Bytes: what must cross memory at the
// least, the inputs read once: every traffic slice and path-cost matrix (n² values of 8 bytes each).
// Reductions (statistics, histograms, top lists) stay on chip and the results are a few kilobytes, so they
// are not counted. A sweep is therefore far right of any ridge: compute-bound.
#include <cstdint>

#include "registry/kernel_spec.hpp"
#include "topo/problem.hpp"

namespace ks::topo {

CostModel sweep_cost(const Problem& problem, std::uint64_t evaluations);

}  // namespace ks::topo
