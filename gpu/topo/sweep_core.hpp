#pragma once
// The enumeration at the heart of the topology sweep, shared verbatim by the CPU backend and the CUDA kernels.
//
// cost(t, p, c) = sum over positions i, j of D_c[i][j] * T_t[p(i)][p(j)]: D_c is the path cost between positions
// in configuration c, T_t the traffic between nodes at timestamp t, p the placement (node p(i) at position i).
// Diagonal terms count too, as in QAPLIB; route costs have a zero diagonal, so for topologies they vanish.
//
// A run is a block of consecutive placement indices. Its first placement is decoded from its index (factorial
// number system), evaluated in full (O(n^2)), and every following placement differs from the previous one by a
// swap of two positions, whose effect on the cost is computed in O(n) (the delta below). Within a run,
// placements come in blocks that share the nodes of positions 0 .. q-1; Heap's algorithm walks the m! orders of
// the last m positions, then a few swaps move the prefix to the next one in lexicographic order.
//
// A tile is TT traffic matrices x CC configurations evaluated together: every swap reads each traffic entry
// once for all CC configurations and each path cost once for all TT timestamps.
#include <cstdint>
#include <limits>

#include "core/hd.hpp"
#include "topo/arith.hpp"
#include "topo/permutation.hpp"

namespace ks::topo {

// The shape of the enumeration, the same for every run of a sweep.
struct RunGeometry {
  int n = 0;                        // nodes (and positions)
  int q = 0;                        // prefix positions; the last n - q positions are permuted inside a block
  int heap_steps = 0;               // (n - q)! - 1 swaps per block
  const std::uint8_t* heap = nullptr;  // HeapSwaps::step, (a << 4) | b relative to position q
};

// One run: where it starts, how many blocks, and (for runs cut by the ends of a requested index range) which
// codes count. Placements outside [lo, hi) are still enumerated, since the walk passes through them, but not
// visited.
struct RunBounds {
  std::uint64_t first_index = 0;
  std::uint64_t blocks = 0;
  bool masked = false;
  std::uint64_t lo_code = 0;
  std::uint64_t hi_code = 0;
  bool hi_open = true;  // no upper limit: the range ends at n!

  KS_HD bool counts(std::uint64_t code) const {
    return !masked || (code >= lo_code && (hi_open || code < hi_code));
  }
};

// The costs of the current placement for every pair of a tile, kept up to date across swaps.
template <class A, int N, int TT, int CC>
struct TileWalker {
  using V = typename A::Value;
  static constexpr int kSlices = TT;
  static constexpr int kConfigs = CC;

  const V* traffic[TT];  // n x n, row-major: traffic[src][dst]
  const V* cost_of[CC];  // n x n path costs between positions
  int runtime_n = 0;     // used when N == 0
  std::uint64_t code = 0;
  V cost[TT][CC];

  KS_HD int n() const { return N > 0 ? N : runtime_n; }

  // From the definition, in a fixed order (i, then j) that every backend follows.
  KS_HD void evaluate_in_full() {
    const int nn = n();
    for (int t = 0; t < TT; ++t)
      for (int c = 0; c < CC; ++c) cost[t][c] = V(0);
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#endif
    for (int i = 0; i < nn; ++i) {
      const int xi = node_at(code, i);
      for (int j = 0; j < nn; ++j) {
        const int xj = node_at(code, j);
        V tv[TT];
        for (int t = 0; t < TT; ++t) tv[t] = traffic[t][xi * nn + xj];
        for (int c = 0; c < CC; ++c) {
          const V d = cost_of[c][i * nn + j];
          for (int t = 0; t < TT; ++t) cost[t][c] = A::mad(cost[t][c], d, tv[t]);
        }
      }
    }
  }

  // Swaps the nodes at positions r and s and updates every cost by the change, in O(n):
  //   sum over k != r, s of (D[k][r] - D[k][s]) (T[x_k][y_s] - T[x_k][y_r])
  //                       + (D[r][k] - D[s][k]) (T[y_s][x_k] - T[y_r][x_k])
  //   + (D[r][s] - D[s][r]) (T[y_s][y_r] - T[y_r][y_s]) + (D[r][r] - D[s][s]) (T[y_s][y_s] - T[y_r][y_r])
  // where y_r, y_s are the nodes at r and s before the swap and x_k the node at k.
  KS_HD void swap(int r, int s) {
    const int nn = n();
    const int yr = node_at(code, r), ys = node_at(code, s);
    V delta[TT][CC];
    for (int t = 0; t < TT; ++t)
      for (int c = 0; c < CC; ++c) delta[t][c] = V(0);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int k = 0; k < (N > 0 ? N : nn); ++k) {
      if (k == r || k == s) continue;
      const int xk = node_at(code, k);
      V to_k[TT], from_k[TT];
      for (int t = 0; t < TT; ++t) {
        to_k[t] = A::sub(traffic[t][xk * nn + ys], traffic[t][xk * nn + yr]);
        from_k[t] = A::sub(traffic[t][ys * nn + xk], traffic[t][yr * nn + xk]);
      }
      for (int c = 0; c < CC; ++c) {
        const V into = A::sub(cost_of[c][k * nn + r], cost_of[c][k * nn + s]);
        const V out = A::sub(cost_of[c][r * nn + k], cost_of[c][s * nn + k]);
        for (int t = 0; t < TT; ++t) delta[t][c] = A::mad(A::mad(delta[t][c], into, to_k[t]), out, from_k[t]);
      }
    }
    V cross[TT], self[TT];
    for (int t = 0; t < TT; ++t) {
      cross[t] = A::sub(traffic[t][ys * nn + yr], traffic[t][yr * nn + ys]);
      self[t] = A::sub(traffic[t][ys * nn + ys], traffic[t][yr * nn + yr]);
    }
    for (int c = 0; c < CC; ++c) {
      const V d_cross = A::sub(cost_of[c][r * nn + s], cost_of[c][s * nn + r]);
      const V d_self = A::sub(cost_of[c][r * nn + r], cost_of[c][s * nn + s]);
      for (int t = 0; t < TT; ++t)
        cost[t][c] = A::add(cost[t][c], A::mad(A::mad(delta[t][c], d_cross, cross[t]), d_self, self[t]));
    }
    code = swap_positions(code, r, s);
  }
};

// Moves positions 0 .. q-1 of a walker (anything with `code`, `n()` and `swap(r, s)`) to the next prefix in
// lexicographic order, by swaps (usually one).
template <class Walker>
KS_HD void advance_prefix(Walker& w, int q) {
  std::uint64_t target = w.code;
  next_prefix(target, w.n(), q);
  for (int i = 0; i < q; ++i) {
    const int want = node_at(target, i);
    if (node_at(w.code, i) == want) continue;
    int j = i + 1;
    while (node_at(w.code, j) != want) ++j;
    w.swap(i, j);
  }
}

// Walks one run, calling visit(walker) for every placement of the run that the bounds count.
template <class Walker, class Visit>
KS_HD void walk_run(Walker& w, const RunGeometry& g, const RunBounds& b, Visit& visit) {
  w.code = code_of_index(b.first_index, g.n);
  w.evaluate_in_full();
  for (std::uint64_t block = 0;; ++block) {
    for (int step = 0;; ++step) {
      if (b.counts(w.code)) visit(w);
      if (step == g.heap_steps) break;
      const int pair = g.heap[step];
      w.swap(g.q + (pair >> 4), g.q + (pair & 15));
    }
    if (block + 1 >= b.blocks) break;
    advance_prefix(w, g.q);
  }
}

// Summary of the costs one worker has seen for one (slice, configuration): minimum with the smallest key among
// equal minima (the placement's code or index, or a sample number), maximum, sum and count.
template <class A>
struct RunningStats {
  using V = typename A::Value;
  V min = std::numeric_limits<V>::max();
  std::uint64_t key = ~std::uint64_t(0);
  V max = std::numeric_limits<V>::lowest();
  typename A::Sum sum{};
  std::uint64_t count = 0;

  KS_HD void add(V cost, std::uint64_t k) {
    if (cost < min || (cost == min && k < key)) {
      min = cost;
      key = k;
    }
    if (cost > max) max = cost;
    A::accumulate(sum, cost);
    ++count;
  }
  KS_HD void merge(const RunningStats& o) {
    if (o.min < min || (o.min == min && o.key < key)) {
      min = o.min;
      key = o.key;
    }
    if (o.max > max) max = o.max;
    merge_sum(o.sum);
    count += o.count;
  }

 private:
  KS_HD void merge_sum(const Sum128& s) { sum.add(s); }
  KS_HD void merge_sum(double s) { A::accumulate(sum, s); }
};

}  // namespace ks::topo
