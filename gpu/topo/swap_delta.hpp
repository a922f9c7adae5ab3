#pragma once
// The cost of a placement and the change of cost of swapping two positions, shared verbatim by the CPU
// backends and the CUDA kernels of the search (explicit placements of any n, or traffic kept permuted) and of
// the sweep (sweep_core.hpp: packed codes of n <= 16).
//
// cost(p) = sum over positions i, j of D[i][j] * T[p(i)][p(j)]: D the path costs between positions, T the
// traffic between nodes, p(i) the node at position i (QAPLIB: A = D, B = T).
//
// Taillard's delta matrix (robust tabu search, 1991) keeps delta(r, s), the change of swapping r and s, for
// every pair r < s. After a move (u, v) the entry of a pair {r, s} disjoint from {u, v} changes by
//   (a_r - a_s)(b_r - b_s) + (c_r - c_s)(e_r - e_s)
// with, for the placement after the move,
//   a_k = D[u][k] - D[v][k],   b_k = T[p(v)][p(k)] - T[p(u)][p(k)],
//   c_k = D[k][u] - D[k][v],   e_k = T[p(k)][p(v)] - T[p(k)][p(u)]
// (Taillard's formula, with its four differences of each factor gathered into per-position vectors: O(n) for
// the vectors, then O(1) per pair); pairs that touch u or v are computed again in O(n).
//
// A placement is anything with `int operator[](int) const` (a pointer, or a strided view of a GPU thread's
// column in shared memory). The matrices' entries are of any type M that converts to the arithmetic's value
// without loss (the search may keep them narrower: search_arith.hpp's ExactInt32In).
#include <cstdint>
#include <type_traits>

#include "core/hd.hpp"

namespace ks::topo {

// The cost from the definition, in a fixed order (i, then j).
template <class A, class P, class M>
KS_HD typename A::Value full_cost(const M* traffic, const M* cost_of, const P& p, int n) {
  typename A::Value c = 0;
  for (int i = 0; i < n; ++i) {
    const int xi = p[i];
    for (int j = 0; j < n; ++j) c = A::mad(c, cost_of[i * n + j], traffic[xi * n + p[j]]);
  }
  return c;
}

// The terms that position k adds to the change of cost of swapping positions r and s (none for k = r or s).
template <class A, class P, class M>
KS_HD typename A::Value swap_delta_term(typename A::Value delta, const M* traffic, const M* cost_of,
                                        const P& place, int pitch, int k, int r, int s, int yr, int ys) {
  using V = typename A::Value;
  if (k == r || k == s) return delta;
  const int xk = place[k];
  const V to_k = A::sub(traffic[xk * pitch + ys], traffic[xk * pitch + yr]);
  const V from_k = A::sub(traffic[ys * pitch + xk], traffic[yr * pitch + xk]);
  const V into = A::sub(cost_of[k * pitch + r], cost_of[k * pitch + s]);
  const V out = A::sub(cost_of[r * pitch + k], cost_of[s * pitch + k]);
  return A::mad(A::mad(delta, into, to_k), out, from_k);
}

// The sum of the terms of k = first, first + stride, ... (all of them: 0, 1; a team's lanes each take a share
// of one pair's O(n) sum, and swap_delta_ends completes the sum of the shares).
template <class A, class P, class M>
KS_HD typename A::Value swap_delta_terms(const M* traffic, const M* cost_of, const P& place, int pitch, int n,
                                         int r, int s, int first, int stride) {
  const int yr = place[r], ys = place[s];
  typename A::Value delta = 0;
  for (int k = first; k < n; k += stride)
    delta = swap_delta_term<A>(delta, traffic, cost_of, place, pitch, k, r, s, yr, ys);
  return delta;
}

// The terms of the swap of r and s that no other position k takes part in (the pair's own entries), added to
// the sum of the k terms.
template <class A, class M>
KS_HD typename A::Value swap_delta_ends(typename A::Value delta, const M* traffic, const M* cost_of,
                                        int pitch, int r, int s, int yr, int ys) {
  using V = typename A::Value;
  const V cross = A::sub(traffic[ys * pitch + yr], traffic[yr * pitch + ys]);
  const V self = A::sub(traffic[ys * pitch + ys], traffic[yr * pitch + yr]);
  const V d_cross = A::sub(cost_of[r * pitch + s], cost_of[s * pitch + r]);
  const V d_self = A::sub(cost_of[r * pitch + r], cost_of[s * pitch + s]);
  return A::mad(A::mad(delta, d_cross, cross), d_self, self);
}

// The change of cost of swapping the nodes at positions r != s, in O(n):
//   sum over k != r, s of (D[k][r] - D[k][s]) (T[x_k][y_s] - T[x_k][y_r])
//                       + (D[r][k] - D[s][k]) (T[y_s][x_k] - T[y_r][x_k])
//   + (D[r][s] - D[s][r]) (T[y_s][y_r] - T[y_r][y_s]) + (D[r][r] - D[s][s]) (T[y_s][y_s] - T[y_r][y_r])
// where y_r, y_s are the nodes at r and s before the swap and x_k the node at k. The one formula of every
// walker of placements, so that they all round alike:
//   - swap_delta below: an explicit placement, T and D n x n;
//   - the tabu chains (tabu_step.hpp): T kept permuted by position, so `place` is the identity
//     (IdentityPlacement), T and D with rows `pitch` apart;
//   - the sweep's Walker (sweep_core.hpp): the placement in a packed code (CodePlacement), N > 0 when n is
//     known at compile time, and the loop unrolled on the GPU (Unrolled; the search's loops keep nvcc's own
//     choice).
template <class A, int N = 0, bool Unrolled = false, class P, class M>
KS_HD typename A::Value swap_delta_pitched(const M* traffic, const M* cost_of, const P& place, int pitch,
                                           int n, int r, int s) {
  using V = typename A::Value;
  const int yr = place[r], ys = place[s];
  V delta = 0;
  if constexpr (Unrolled) {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int k = 0; k < (N > 0 ? N : n); ++k)
      delta = swap_delta_term<A>(delta, traffic, cost_of, place, pitch, k, r, s, yr, ys);
  } else {
    delta = swap_delta_terms<A>(traffic, cost_of, place, pitch, N > 0 ? N : n, r, s, 0, 1);
  }
  return swap_delta_ends<A>(delta, traffic, cost_of, pitch, r, s, yr, ys);
}

// The same change where D and T are both symmetric (D[i][j] = D[j][i], T[x][y] = T[y][x]): the two terms of
// each k are equal and the cross term vanishes, so
//   2 x sum over k != r, s of (D[k][r] - D[k][s]) (T[x_k][y_s] - T[x_k][y_r])
//   + (D[r][r] - D[s][s]) (T[y_s][y_s] - T[y_r][y_r])
// reads half the entries. In integer arithmetic it is swap_delta_pitched's value exactly (the same terms
// summed in another order, each intermediate within choose_arithmetic's bound); in floating point it rounds
// differently. In two parts, as the general form: half the sum over k = first, first + stride, ...
// (swap_delta_symmetric_terms), then the self term added to twice the half sum (swap_delta_symmetric_ends).
// The entries are read by row (D[r][k] for D[k][r], T[y_s][x_k] for T[x_k][y_s]: the same values), so that
// the k of one sum are neighbouring words: a GPU thread then reads them at fixed offsets from four row
// starts, without an address computation per term. WithEnds (integers only) also sums the terms of k = r and
// k = s, which swap_delta_symmetric_end_terms then takes out again: the loop needs no test per k, and every
// partial sum stays within choose_arithmetic's bound (at most 2 x sum|D| x max|T|), so the value is exact.
template <class A, bool WithEnds = false, class P, class M>
KS_HD typename A::Value swap_delta_symmetric_terms(const M* traffic, const M* cost_of, const P& place,
                                                   int pitch, int n, int r, int s, int first, int stride) {
  using V = typename A::Value;
  static_assert(A::exact || !WithEnds, "terms summed out of order change a floating-point sum");
  const int yr = place[r], ys = place[s];
  const M *d_r = cost_of + r * pitch, *d_s = cost_of + s * pitch;
  const M *t_r = traffic + yr * pitch, *t_s = traffic + ys * pitch;
  V half = 0;
  for (int k = first; k < n; k += stride) {
    if (!WithEnds && (k == r || k == s)) continue;
    const int xk = place[k];
    half = A::mad(half, A::sub(d_r[k], d_s[k]), A::sub(t_s[xk], t_r[xk]));
  }
  return half;
}

// swap_delta_symmetric_terms<A, true>'s sum for 8-bit entries and the identity placement (a tabu chain's
// permuted traffic), a word of four k at a time: words first, first + stride, ... of rows that start on a
// word, with D zero past n. The sum of (D[r][k] - D[s][k]) (T[s][k] - T[r][k]) is that of D[r][k] T[s][k] +
// D[s][k] T[r][k] less that of D[r][k] T[r][k] + D[s][k] T[s][k]: on a GPU four dp4a a word (each four
// products of bytes added to a 32-bit sum) where the byte loop takes four loads and three operations a k.
// Each of the two sums is at most 2 x sum|D| x max|T|, within choose_arithmetic's bound, so the value is the
// same integer.
template <class A>
KS_HD typename A::Value swap_delta_symmetric_words(const std::int8_t* traffic, const std::int8_t* cost_of,
                                                   int pitch, int n, int r, int s, int first, int stride) {
  static_assert(A::exact && sizeof(typename A::Value) == 4, "32-bit integer sums of 8-bit entries");
  const std::int8_t *d_r = cost_of + r * pitch, *d_s = cost_of + s * pitch;
  const std::int8_t *t_r = traffic + r * pitch, *t_s = traffic + s * pitch;
  std::int32_t plus = 0, minus = 0;
  const int words = (n + 3) / 4;
  for (int w = first; w < words; w += stride) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 610
    const int dr = reinterpret_cast<const int*>(d_r)[w], ds = reinterpret_cast<const int*>(d_s)[w];
    const int tr = reinterpret_cast<const int*>(t_r)[w], ts = reinterpret_cast<const int*>(t_s)[w];
    plus = __dp4a(dr, ts, __dp4a(ds, tr, plus));
    minus = __dp4a(dr, tr, __dp4a(ds, ts, minus));
#else
    for (int k = 4 * w; k < 4 * w + 4; ++k) {
      plus += std::int32_t(d_r[k]) * t_s[k] + std::int32_t(d_s[k]) * t_r[k];
      minus += std::int32_t(d_r[k]) * t_r[k] + std::int32_t(d_s[k]) * t_s[k];
    }
#endif
  }
  return plus - minus;
}

// The terms of k = r and k = s in swap_delta_symmetric_terms<A, true>'s sum.
template <class A, class P, class M>
KS_HD typename A::Value swap_delta_symmetric_end_terms(const M* traffic, const M* cost_of, const P& place,
                                                       int pitch, int r, int s) {
  using V = typename A::Value;
  const int yr = place[r], ys = place[s];
  const M *d_r = cost_of + r * pitch, *d_s = cost_of + s * pitch;
  const M *t_r = traffic + yr * pitch, *t_s = traffic + ys * pitch;
  const V at_r = A::mad(V(0), A::sub(d_r[r], d_s[r]), A::sub(t_s[yr], t_r[yr]));
  return A::mad(at_r, A::sub(d_r[s], d_s[s]), A::sub(t_s[ys], t_r[ys]));
}

template <class A, class M>
KS_HD typename A::Value swap_delta_symmetric_ends(typename A::Value half, const M* traffic, const M* cost_of,
                                                  int pitch, int r, int s, int yr, int ys) {
  const typename A::Value self = A::sub(traffic[ys * pitch + ys], traffic[yr * pitch + yr]);
  const typename A::Value d_self = A::sub(cost_of[r * pitch + r], cost_of[s * pitch + s]);
  return A::mad(A::add(half, half), d_self, self);
}

template <class A, class P, class M>
KS_HD typename A::Value swap_delta_symmetric_pitched(const M* traffic, const M* cost_of, const P& place,
                                                     int pitch, int n, int r, int s) {
  return swap_delta_symmetric_ends<A>(
      swap_delta_symmetric_terms<A>(traffic, cost_of, place, pitch, n, r, s, 0, 1), traffic, cost_of, pitch,
      r, s, place[r], place[s]);
}

// The change of cost of swapping the nodes at positions r != s of an explicit placement p (see above).
template <class A, class P, class M>
KS_HD typename A::Value swap_delta(const M* traffic, const M* cost_of, const P& p, int n, int r, int s) {
  return swap_delta_pitched<A>(traffic, cost_of, p, n, n, r, s);
}

// The placement of a chain that keeps its traffic permuted by position: position k holds "node" k.
struct IdentityPlacement {
  KS_HD int operator[](int k) const { return k; }
};

// A move's differences at one position k: of the path costs and of the traffic (a_k and b_k, or c_k and e_k;
// see the top).
template <class V>
struct alignas(2 * sizeof(V)) MoveDifference {
  V cost, traffic;
};

// The four vectors of a move (u, v), for the placement after the move (see the top; tabu_step.hpp fills
// them), in 4n values of scratch. 32-bit values in pairs, {a_k, b_k} then {c_k, e_k}, so that a GPU thread
// reads both of a position in one 64-bit load; 64-bit values as four arrays a, b, c, e (in pairs, the int64
// and double kernels with their matrices in shared memory spilled: ptxas, sm_90).
template <class A>
struct MoveVectors {
  using V = typename A::Value;
  static constexpr bool kPaired = sizeof(V) == 4;
  using Slot = std::conditional_t<kPaired, MoveDifference<V>, V>;  // what the scratch is made of

  Slot* scratch = nullptr;  // slots(n)
  int n = 0;

  KS_HD static int slots(int n) { return kPaired ? 2 * n : 4 * n; }

  KS_HD V& a(int k) const {
    if constexpr (kPaired)
      return scratch[k].cost;
    else
      return scratch[k];
  }
  KS_HD V& b(int k) const {
    if constexpr (kPaired)
      return scratch[k].traffic;
    else
      return scratch[n + k];
  }
  KS_HD V& c(int k) const {
    if constexpr (kPaired)
      return scratch[n + k].cost;
    else
      return scratch[2 * n + k];
  }
  KS_HD V& e(int k) const {
    if constexpr (kPaired)
      return scratch[n + k].traffic;
    else
      return scratch[3 * n + k];
  }
  // {a_k, b_k} and {c_k, e_k}, each in one load where paired.
  KS_HD MoveDifference<V> row(int k) const {
    if constexpr (kPaired)
      return scratch[k];
    else
      return {scratch[k], scratch[n + k]};
  }
  KS_HD MoveDifference<V> column(int k) const {
    if constexpr (kPaired)
      return scratch[n + k];
    else
      return {scratch[2 * n + k], scratch[3 * n + k]};
  }

  // delta(r, s) after the move, from delta(r, s) before it; {r, s} and {u, v} disjoint.
  KS_HD V updated(V delta, int r, int s) const {
    const MoveDifference<V> ar = row(r), as = row(s), cr = column(r), cs = column(s);
    return A::mad(A::mad(delta, A::sub(ar.cost, as.cost), A::sub(ar.traffic, as.traffic)),
                  A::sub(cr.cost, cs.cost), A::sub(cr.traffic, cs.traffic));
  }
  // The same where D and T are symmetric: then c = a and e = b, and the two products are equal (exactly
  // updated()'s value in integer arithmetic).
  KS_HD V updated_symmetric(V delta, int r, int s) const {
    const MoveDifference<V> ar = row(r), as = row(s);
    const V da = A::sub(ar.cost, as.cost);
    return A::mad(delta, A::add(da, da), A::sub(ar.traffic, as.traffic));
  }
};

// Pairs r < s in the order of the delta matrix, packed as (r << 16) | s: pair k of n is the k-th in
// (0,1), (0,2), ..., (0,n-1), (1,2), ...
KS_HD int pair_count(int n) {
  return n * (n - 1) / 2;
}
KS_HD std::uint32_t pack_pair(int r, int s) {
  return (std::uint32_t(r) << 16) | std::uint32_t(s);
}
KS_HD int pair_first(std::uint32_t packed) {
  return int(packed >> 16);
}
KS_HD int pair_second(std::uint32_t packed) {
  return int(packed & 0xFFFFu);
}

}  // namespace ks::topo
