#pragma once
// lap_solve (hungarian.hpp) spread over the 32 lanes of a warp: the same algorithm step for step, each step's
// loop over the columns split among the lanes (column j on lane (j - 1) % 32) and its minimum taken by a warp
// reduction that keeps the first column of equals, as the sequential loop's strict `<` does. Every value is
// an exact 64-bit integer, so the potentials, and so the reduced costs that decide the tree, are the CPU's to
// the last unit (tests/gpu/test_topo_bnb_batch_cuda.cpp compares node by node).
//
// All 32 lanes must call it together (it synchronises the warp); cost and scratch in memory the whole warp
// sees (the node's shared memory).
#include <cstdint>

#include "topo/bnb/hungarian.hpp"

namespace ks::topo::warp {

constexpr unsigned kFullWarp = 0xffffffffu;
constexpr int kLanes = 32;

__device__ __forceinline__ std::int64_t sum(std::int64_t x) {
  for (int offset = kLanes / 2; offset > 0; offset /= 2) x += __shfl_xor_sync(kFullWarp, x, offset);
  return x;
}

__device__ __forceinline__ std::int64_t minimum(std::int64_t x) {
  for (int offset = kLanes / 2; offset > 0; offset /= 2) {
    const std::int64_t y = __shfl_xor_sync(kFullWarp, x, offset);
    x = y < x ? y : x;
  }
  return x;
}

// The smallest value, and of equal values the smallest index.
__device__ __forceinline__ void first_minimum(std::int64_t& value, int& index) {
  for (int offset = kLanes / 2; offset > 0; offset /= 2) {
    const std::int64_t v = __shfl_xor_sync(kFullWarp, value, offset);
    const int i = __shfl_xor_sync(kFullWarp, index, offset);
    if (v < value || (v == value && i < index)) value = v, index = i;
  }
}

// As lap_solve: cost m x m row-major; scratch lap_scratch_size(m) entries; u_out, v_out (m) the potentials;
// returns the optimum on every lane.
__device__ inline std::int64_t lap_solve(const std::int64_t* cost, int m, std::int64_t* scratch,
                                         std::int64_t* u_out, std::int64_t* v_out, int lane) {
  if (m == 0) return 0;
  constexpr std::int64_t kInf = std::int64_t(1) << 62;
  constexpr std::int64_t kNone = INT64_MAX;  // a lane with no column left to offer
  std::int64_t* u = scratch;
  std::int64_t* v = u + (m + 1);
  std::int64_t* row_of = v + (m + 1);
  std::int64_t* way = row_of + (m + 1);
  std::int64_t* minv = way + (m + 1);
  std::int64_t* used = minv + (m + 1);
  std::int64_t* row_matched = used + (m + 1);
  const auto c = [&](int i, int j) { return cost[(i - 1) * m + (j - 1)]; };
  for (int j = lane; j <= m; j += kLanes) u[j] = v[j] = row_of[j] = way[j] = row_matched[j] = 0;
  __syncwarp();
  // The feasible start: column minima, then row minima and a greedy matching on zero reduced costs, row by
  // row.
  for (int j = 1 + lane; j <= m; j += kLanes) {
    std::int64_t low = c(1, j);
    for (int i = 2; i <= m; ++i) low = c(i, j) < low ? c(i, j) : low;
    v[j] = low;
  }
  __syncwarp();
  for (int i = 1; i <= m; ++i) {
    std::int64_t low = kNone;
    for (int j = 1 + lane; j <= m; j += kLanes) low = c(i, j) - v[j] < low ? c(i, j) - v[j] : low;
    low = minimum(low);
    if (lane == 0) u[i] = low;
    for (int base = 1; base <= m; base += kLanes) {
      const int j = base + lane;
      const unsigned zero = __ballot_sync(kFullWarp, j <= m && row_of[j] == 0 && c(i, j) - low - v[j] == 0);
      if (zero) {
        __syncwarp();  // every lane has read row_of before the first lane changes it
        if (lane == 0) {
          row_of[base + __ffs(zero) - 1] = i;
          row_matched[i] = 1;
        }
        break;
      }
    }
    __syncwarp();
  }
  for (int i = 1; i <= m; ++i) {
    if (row_matched[i]) continue;
    if (lane == 0) row_of[0] = i;
    for (int j = lane; j <= m; j += kLanes) {
      minv[j] = kInf;
      used[j] = 0;
    }
    __syncwarp();
    int j0 = 0;
    do {
      if (lane == 0) used[j0] = 1;
      __syncwarp();
      const int i0 = int(row_of[j0]);
      const std::int64_t u0 = u[i0];
      std::int64_t delta = kNone;
      int j1 = 0;
      for (int j = 1 + lane; j <= m; j += kLanes) {
        if (used[j]) continue;
        const std::int64_t cur = c(i0, j) - u0 - v[j];
        if (cur < minv[j]) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      first_minimum(delta, j1);
      __syncwarp();  // u[i0] read above before any lane changes it
      // The used columns' rows are distinct (row_of[0] the new row, the others matched), so the lanes' writes
      // to u never meet.
      for (int j = lane; j <= m; j += kLanes) {
        if (used[j]) {
          u[row_of[j]] += delta;
          v[j] -= delta;
        } else {
          minv[j] -= delta;
        }
      }
      __syncwarp();
      j0 = j1;
    } while (row_of[j0] != 0);
    __syncwarp();  // as above: the augmenting path rewrites row_of
    if (lane == 0) do {
        const int j1 = int(way[j0]);
        row_of[j0] = row_of[j1];
        j0 = j1;
      } while (j0 != 0);
    __syncwarp();
  }
  std::int64_t total = 0;
  for (int j = 1 + lane; j <= m; j += kLanes) total += c(int(row_of[j]), j);
  for (int k = lane; k < m; k += kLanes) {
    u_out[k] = u[k + 1];
    v_out[k] = v[k + 1];
  }
  __syncwarp();
  return sum(total);
}

}  // namespace ks::topo::warp
