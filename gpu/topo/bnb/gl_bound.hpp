#pragma once
// The Gilmore-Lawler bound of a node of the branch-and-bound tree, shared verbatim by the CPU and the CUDA
// batch (one node per call, all memory from the caller's scratch, no allocation, a fixed order of operations:
// exact 64-bit integers, so every backend gets the same bound to the last unit).
//
// The problem in QAP terms: node (facility) f at position (location) loc(f) costs
//   cost = sum over facilities f, g of T[f][g] * D[loc(f)][loc(g)]
// (swap_delta.hpp's definition, read by facility: T the traffic, D the path costs, diagonals included).
// A node fixes the locations of the first `depth` facilities of its order (the facilities in branching order).
// With A those fixed, F the m = n - depth free facilities (in that order) and L the free locations (ascending):
//   bound = fixed + LAP(C),  fixed = sum over a, b in A of T[a][b] D[loc a][loc b],
//   C[f][l] = T[f][f] D[l][l] + sum over a in A of (T[f][a] D[l][loc a] + T[a][f] D[loc a][l])
//           + min over pairings of (T[f][g], g in F \ f) with (D[l][k], k in L \ l)
// The last term is the minimal scalar product: T's row sorted ascending against D's row sorted descending
// (rearrangement inequality, any signs). Every completion pays at least C[f][l] for each of its pairs (the
// traffic from f to the other free facilities goes along some pairing of D's row), so at least LAP(C).
// With one free facility the bound is the exact cost of the only completion.
#include <cstdint>

#include "core/hd.hpp"
#include "topo/bnb/hungarian.hpp"

namespace ks::topo {

// int64 scratch entries of gl_bound_from_linear for n facilities (any depth); gl_bound needs gl_full_scratch_size.
KS_HD int gl_scratch_size(int n) { return 3 * n * n + 4 * n + lap_scratch_size(n); }
KS_HD int gl_full_scratch_size(int n) { return gl_scratch_size(n) + n * n + 2 * n; }

KS_HD void insertion_sort_ascending(std::int64_t* a, int count) {
  for (int i = 1; i < count; ++i) {
    const std::int64_t x = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > x) {
      a[j + 1] = a[j];
      --j;
    }
    a[j + 1] = x;
  }
}

// One entry of the linear part of C:
//   T[f][f] D[l][l] + sum over fixed a of (T[f][a] D[l][loc a] + T[a][f] D[loc a][l]).
KS_HD std::int64_t gl_linear_entry(int n, const std::int64_t* T, const std::int64_t* D, const int* order,
                                   const int* locs, int depth, int f, int l) {
  std::int64_t x = T[f * n + f] * D[l * n + l];
  for (int a = 0; a < depth; ++a) {
    const int fa = order[a], la = locs[a];
    x += T[f * n + fa] * D[l * n + la] + T[fa * n + f] * D[la * n + l];
  }
  return x;
}

// The linear part of C: lin[r][c] = gl_linear_entry for free facility r (f = order[depth + r]) at free location c
// (the c-th free location, ascending).
KS_HD void gl_linear(int n, const std::int64_t* T, const std::int64_t* D, const int* order, const int* locs, int depth,
                     const std::int64_t* free_loc, std::int64_t* lin) {
  const int m = n - depth;
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < m; ++c)
      lin[r * m + c] = gl_linear_entry(n, T, D, order, locs, depth, order[depth + r], int(free_loc[c]));
}

// The child's linear part from its parent's (O(m^2) instead of O(m^2 depth)): the parent (depth, m free, its
// order and free locations) fixes its free facility `row` at its free location `column`; the child's order is the
// parent's with positions depth and depth + row swapped, its free locations the parent's without `column`.
KS_HD void gl_child_linear(int n, const std::int64_t* T, const std::int64_t* D, const int* parent_order, int depth,
                           const std::int64_t* parent_free_loc, const std::int64_t* parent_lin, int row, int column,
                           std::int64_t* child_lin) {
  const int m = n - depth, cm = m - 1;
  const int a = parent_order[depth + row], la = int(parent_free_loc[column]);
  for (int k = 0; k < cm; ++k) {
    const int pr = k + 1 == row ? 0 : k + 1;
    const int f = parent_order[depth + pr];
    for (int j = 0; j < cm; ++j) {
      const int pc = j < column ? j : j + 1;
      const int l = int(parent_free_loc[pc]);
      child_lin[k * cm + j] = parent_lin[pr * m + pc] + T[f * n + a] * D[l * n + la] + T[a * n + f] * D[la * n + l];
    }
  }
}

// The free locations of a node, ascending (m of them).
KS_HD int gl_free_locations(int n, const int* locs, int depth, std::int64_t* taken, std::int64_t* free_loc) {
  for (int l = 0; l < n; ++l) taken[l] = 0;
  for (int k = 0; k < depth; ++k) taken[locs[k]] = 1;
  int count = 0;
  for (int l = 0; l < n; ++l)
    if (!taken[l]) free_loc[count++] = l;
  return count;
}

// The pieces of gl_bound_from_linear, each also run on its own by one GPU lane (cuda/node_batch_cuda.cu):
// the cost of the fixed facilities among themselves,
KS_HD std::int64_t gl_fixed_cost(int n, const std::int64_t* T, const std::int64_t* D, const int* order,
                                 const int* locs, int depth) {
  std::int64_t fixed = 0;
  for (int a = 0; a < depth; ++a) {
    const int fa = order[a], la = locs[a];
    for (int b = 0; b < depth; ++b) fixed += T[fa * n + order[b]] * D[la * n + locs[b]];
  }
  return fixed;
}

// free facility r's traffic to the other free facilities, ascending (m - 1 entries),
KS_HD void gl_flow_row(int n, const std::int64_t* T, const int* order, int depth, int r, std::int64_t* row) {
  const int m = n - depth, f = order[depth + r];
  int k = 0;
  for (int s = 0; s < m; ++s)
    if (s != r) row[k++] = T[f * n + order[depth + s]];
  insertion_sort_ascending(row, m - 1);
}

// free location c's path costs to the other free locations, ascending (m - 1 entries),
KS_HD void gl_distance_row(int n, const std::int64_t* D, int m, const std::int64_t* free_loc, int c,
                           std::int64_t* row) {
  const int l = int(free_loc[c]);
  int k = 0;
  for (int s = 0; s < m; ++s)
    if (s != c) row[k++] = D[l * n + free_loc[s]];
  insertion_sort_ascending(row, m - 1);
}

// and one entry of C: the linear part plus the minimal scalar product of a flow row and a distance row.
KS_HD std::int64_t gl_cost_entry(int m, std::int64_t linear, const std::int64_t* flow_row,
                                 const std::int64_t* dist_row) {
  std::int64_t x = linear;
  for (int k = 0; k < m - 1; ++k) x += flow_row[k] * dist_row[m - 2 - k];
  return x;
}

// The bound from C (m x m, as the pieces above make it) and the fixed cost; u, v, lap: scratch for lap_solve.
// reduced (optional, m x m): C's reduced costs.
KS_HD std::int64_t gl_bound_from_costs(int m, std::int64_t fixed, const std::int64_t* C, std::int64_t* lap,
                                       std::int64_t* u, std::int64_t* v, std::int64_t* reduced) {
  if (m == 0) return fixed;
  const std::int64_t assignment = lap_solve(C, m, lap, u, v);
  if (reduced)
    for (int r = 0; r < m; ++r)
      for (int c = 0; c < m; ++c) reduced[r * m + c] = C[r * m + c] - u[r] - v[c];
  return fixed + assignment;
}

// The scratch layout of gl_bound_from_linear (gl_scratch_size(n) entries), also the GPU lanes'.
struct GlScratch {
  std::int64_t *C, *flow_rows, *dist_rows, *u, *v, *lap;
  KS_HD GlScratch(int n, std::int64_t* scratch)
      : C(scratch), flow_rows(C + n * n), dist_rows(flow_rows + n * n), u(dist_rows + n * n), v(u + n),
        lap(v + n + 2 * n) {}
};

// The bound from the node's linear part `lin` (m x m, as gl_linear makes it). scratch: gl_scratch_size(n).
KS_HD std::int64_t gl_bound_from_linear(int n, const std::int64_t* T, const std::int64_t* D, const int* order,
                                        const int* locs, int depth, const std::int64_t* free_loc,
                                        const std::int64_t* lin, std::int64_t* scratch, std::int64_t* reduced) {
  const int m = n - depth;
  const GlScratch s(n, scratch);  // flow rows: m rows of m - 1; distance rows: read backwards
  const std::int64_t fixed = gl_fixed_cost(n, T, D, order, locs, depth);
  if (m == 0) return fixed;
  for (int r = 0; r < m; ++r) gl_flow_row(n, T, order, depth, r, s.flow_rows + r * (m - 1));
  for (int c = 0; c < m; ++c) gl_distance_row(n, D, m, free_loc, c, s.dist_rows + c * (m - 1));
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < m; ++c)
      s.C[r * m + c] = gl_cost_entry(m, lin[r * m + c], s.flow_rows + r * (m - 1), s.dist_rows + c * (m - 1));
  return gl_bound_from_costs(m, fixed, s.C, s.lap, s.u, s.v, reduced);
}

// T, D: n x n. order: the branching order (n facilities). locs[k]: the location of order[k], k < depth.
// scratch: gl_full_scratch_size(n) entries. reduced (optional, m x m): C's reduced costs after the LAP, rows in
// branching order of the free facilities, columns the free locations ascending; bound + reduced[r][c] bounds
// every completion that puts free facility r at free location c. Returns the bound.
KS_HD std::int64_t gl_bound(int n, const std::int64_t* T, const std::int64_t* D, const int* order, const int* locs,
                            int depth, std::int64_t* scratch, std::int64_t* reduced) {
  std::int64_t* free_loc = scratch + gl_scratch_size(n);  // n
  std::int64_t* taken = free_loc + n;                     // n
  std::int64_t* lin = taken + n;                          // n x n
  gl_free_locations(n, locs, depth, taken, free_loc);
  gl_linear(n, T, D, order, locs, depth, free_loc, lin);
  return gl_bound_from_linear(n, T, D, order, locs, depth, free_loc, lin, scratch, reduced);
}

}  // namespace ks::topo
