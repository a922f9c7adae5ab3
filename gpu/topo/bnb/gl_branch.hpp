#pragma once
// What a node of the branch-and-bound tree branches on, and the lower bounds of its children, from its bound and
// its LAP's reduced costs (gl_bound.hpp): shared verbatim by the CPU dive (proof_tree.cpp), the CPU batch and the
// CUDA batch (node_batch.hpp), so that every backend explores the same tree.
#include <cstdint>

#include "core/hd.hpp"
#include "topo/bnb/gl_bound.hpp"

namespace ks::topo {

// No branch: every child is at or above the incumbent (the node is done).
inline constexpr int kNoBranch = -1;

// reduced: m x m (free facilities in the node's order x free locations ascending). With reduced-cost pruning,
// the free facility (row r: returns r) or free location (column c: returns m + c) that leaves the fewest
// children below `best`, rows first, the first of equals; kNoBranch when that is none. Without, row 0.
KS_HD int gl_choose_branch(const std::int64_t* reduced, int m, std::int64_t bound, std::int64_t best,
                           bool reduced_cost_pruning) {
  if (!reduced_cost_pruning) return 0;
  int fewest = m + 1, line = 0;
  for (int r = 0; r < m && fewest > 0; ++r) {
    int left = 0;
    for (int c = 0; c < m; ++c) left += bound + reduced[r * m + c] < best;
    if (left < fewest) fewest = left, line = r;
  }
  for (int c = 0; c < m && fewest > 0; ++c) {
    int left = 0;
    for (int r = 0; r < m; ++r) left += bound + reduced[r * m + c] < best;
    if (left < fewest) fewest = left, line = m + c;
  }
  return fewest == 0 ? kNoBranch : line;
}

// The k-th child of a branch on `line` (k < m): its free facility (row) and free location (column).
KS_HD void gl_branch_child(int line, int m, int k, int& row, int& column) {
  const bool by_row = line < m;
  row = by_row ? line : k;
  column = by_row ? k : line - m;
}

// A node of a batch (node_batch.hpp) evaluated, from its GL bound and reduced costs (m x m): its bound (the GL
// bound raised to `floor`, what its parent's reduced costs proved, except at a leaf, whose bound is the exact
// cost of its only completion), the branch (line), and the children's lower bounds along it (lowers: m entries,
// written when there is a branch). Returns the bound.
KS_HD std::int64_t gl_finish_node(std::int64_t bound, const std::int64_t* reduced, int m, std::int64_t floor,
                                  std::int64_t best, bool reduced_cost_pruning, int& line, std::int64_t* lowers) {
  line = kNoBranch;
  if (m <= 1) return bound;
  if (bound < floor) bound = floor;
  if (bound >= best) return bound;
  line = gl_choose_branch(reduced, m, bound, best, reduced_cost_pruning);
  if (line != kNoBranch)
    for (int k = 0; k < m; ++k) {
      int r = 0, c = 0;
      gl_branch_child(line, m, k, r, c);
      lowers[k] = bound + reduced[r * m + c];
    }
  return bound;
}

// The same from the node: order (n facilities), locs (depth). scratch: gl_node_scratch_size(n) entries.
KS_HD int gl_node_scratch_size(int n) { return gl_full_scratch_size(n) + n * n; }
KS_HD std::int64_t gl_evaluate_node(int n, const std::int64_t* T, const std::int64_t* D, const int* order,
                                    const int* locs, int depth, std::int64_t floor, std::int64_t best,
                                    bool reduced_cost_pruning, std::int64_t* scratch, int& line,
                                    std::int64_t* lowers) {
  std::int64_t* reduced = scratch + gl_full_scratch_size(n);
  const std::int64_t bound = gl_bound(n, T, D, order, locs, depth, scratch, reduced);
  return gl_finish_node(bound, reduced, n - depth, floor, best, reduced_cost_pruning, line, lowers);
}

}  // namespace ks::topo
