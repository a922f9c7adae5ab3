#pragma once
// The linear assignment problem (LAP) of an m x m integer cost matrix by the Hungarian algorithm with
// potentials (Kuhn-Munkres as shortest augmenting paths, O(m^3)), shared verbatim by the CPU bound and the CUDA
// batch: plain loops over caller-given scratch, no allocation, so that one GPU block (or thread) runs it on a
// node's matrix in shared memory.
//
// Besides the optimum it leaves the dual potentials u (rows) and v (columns) with u[r] + v[c] <= cost[r][c] and
// sum(u) + sum(v) = the optimum: cost[r][c] - u[r] - v[c] is the reduced cost of (r, c), how much at least any
// assignment that uses (r, c) costs above the optimum (branch and bound prunes children with it).
#include <cstdint>

#include "core/hd.hpp"

namespace ks::topo {

// Scratch entries lap_solve needs for an m x m matrix (int64 each).
KS_HD int lap_scratch_size(int m) { return 7 * (m + 1); }

// cost: m x m, row-major. u_out (m), v_out (m): the potentials. Returns the optimum. m = 0 gives 0.
// Exact as long as |cost| stays below 2^60 (costs of placements are below 2^59, problem.hpp).
KS_HD std::int64_t lap_solve(const std::int64_t* cost, int m, std::int64_t* scratch, std::int64_t* u_out,
                             std::int64_t* v_out) {
  if (m == 0) return 0;
  constexpr std::int64_t kInf = std::int64_t(1) << 62;
  // 1-based as in the classic formulation: row 0 and column 0 are the virtual start of each augmenting path.
  std::int64_t* u = scratch;                   // m + 1
  std::int64_t* v = u + (m + 1);               // m + 1
  std::int64_t* row_of = v + (m + 1);          // m + 1: the row assigned to column j (0: none)
  std::int64_t* way = row_of + (m + 1);        // m + 1: the previous column on the path
  std::int64_t* minv = way + (m + 1);          // m + 1
  std::int64_t* used = minv + (m + 1);         // m + 1
  std::int64_t* row_matched = used + (m + 1);  // m + 1: 1 for rows matched by the start
  const auto c = [&](int i, int j) { return cost[(i - 1) * m + (j - 1)]; };
  // A feasible start (column then row reduction) and a greedy matching on its zero reduced costs: most rows are
  // matched before any augmenting path is searched (Jonker and Volgenant's initialisation, simplified). The
  // potentials stay feasible (u[i] + v[j] <= cost) throughout, as the augmentations need.
  for (int j = 0; j <= m; ++j) u[j] = v[j] = row_of[j] = way[j] = row_matched[j] = 0;
  for (int j = 1; j <= m; ++j) {
    std::int64_t low = c(1, j);
    for (int i = 2; i <= m; ++i) low = c(i, j) < low ? c(i, j) : low;
    v[j] = low;
  }
  for (int i = 1; i <= m; ++i) {
    std::int64_t low = c(i, 1) - v[1];
    for (int j = 2; j <= m; ++j) low = c(i, j) - v[j] < low ? c(i, j) - v[j] : low;
    u[i] = low;
    for (int j = 1; j <= m; ++j)
      if (row_of[j] == 0 && c(i, j) - u[i] - v[j] == 0) {
        row_of[j] = i;
        row_matched[i] = 1;
        break;
      }
  }
  for (int i = 1; i <= m; ++i) {
    if (row_matched[i]) continue;
    row_of[0] = i;
    int j0 = 0;
    for (int j = 0; j <= m; ++j) {
      minv[j] = kInf;
      used[j] = 0;
    }
    do {
      used[j0] = 1;
      const int i0 = int(row_of[j0]);
      std::int64_t delta = kInf;
      int j1 = 0;
      for (int j = 1; j <= m; ++j) {
        if (used[j]) continue;
        const std::int64_t cur = c(i0, j) - u[i0] - v[j];
        if (cur < minv[j]) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      for (int j = 0; j <= m; ++j) {
        if (used[j]) {
          u[row_of[j]] += delta;
          v[j] -= delta;
        } else {
          minv[j] -= delta;
        }
      }
      j0 = j1;
    } while (row_of[j0] != 0);
    do {
      const int j1 = int(way[j0]);
      row_of[j0] = row_of[j1];
      j0 = j1;
    } while (j0 != 0);
  }
  std::int64_t total = 0;
  for (int j = 1; j <= m; ++j) total += c(int(row_of[j]), j);
  for (int k = 0; k < m; ++k) {
    u_out[k] = u[k + 1];
    v_out[k] = v[k + 1];
  }
  return total;
}

}  // namespace ks::topo
