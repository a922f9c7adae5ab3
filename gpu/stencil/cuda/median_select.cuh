#pragma once
// Min/max selection networks for the median, on any "lane" type with lo/hi (min/max) operations:
//   - PairLanes: two u8 pixels in the 16-bit lanes of one 32-bit word, each byte doubled (p * 257), so that one
//     __vminu2/__vmaxu2 orders two pixels (sm_90 has 16x2 min/max as one instruction; its __vminu4/__vmaxu4 are
//     emulated: about 5 instructions each, measured from the cubin's size, so four bytes per word cost more than
//     two 16-bit lanes);
//   - FloatLanes: one float (fminf/fmaxf).
// Exact for both: a network only compares and copies, so its output is one of the window's values, the one the
// CPU reference's selection finds.
#include <cstdint>
#include <utility>

namespace ks::cuda {

struct PairLanes {
  using W = std::uint32_t;
  static __device__ __forceinline__ W lo(W a, W b) { return __vminu2(a, b); }
  static __device__ __forceinline__ W hi(W a, W b) { return __vmaxu2(a, b); }
};

struct FloatLanes {
  using W = float;
  static __device__ __forceinline__ W lo(W a, W b) { return fminf(a, b); }
  static __device__ __forceinline__ W hi(W a, W b) { return fmaxf(a, b); }
};

// Compare-exchange: a <= b afterwards.
template <class L, class W>
__device__ __forceinline__ void exchange(W& a, W& b) {
  const W t = L::lo(a, b);
  b = L::hi(a, b);
  a = t;
}

template <class L, class W>
__device__ __forceinline__ W median3(W a, W b, W c) {
  return L::hi(L::lo(a, b), L::lo(L::hi(a, b), c));
}

// A column of three sorted: lo <= mid <= hi.
template <class L, class W>
__device__ __forceinline__ void sort3(W& lo, W& mid, W& hi) {
  exchange<L>(lo, mid);
  exchange<L>(mid, hi);
  exchange<L>(lo, mid);
}

// The median of a 3x3 window from its three sorted columns (left, centre, right): the last 10 exchanges of
// Paeth's 19-exchange network, whose first 9 sort the columns. The largest of the minima, the median of the
// middles and the smallest of the maxima hold the median; their median is it. Callers sort each column once
// and share it between the three windows that contain it.
template <class L, class W>
__device__ __forceinline__ W median9_sorted_columns(W lo0, W mid0, W hi0, W lo1, W mid1, W hi1, W lo2, W mid2,
                                                    W hi2) {
  const W lo = L::hi(L::hi(lo0, lo1), lo2);
  const W hi = L::lo(L::lo(hi0, hi1), hi2);
  const W mid = median3<L>(mid0, mid1, mid2);
  return median3<L>(lo, mid, hi);
}

// Moves the smallest of v[0..s) to v[0] and the largest to v[s-1] (the others stay, in some order): pairs first,
// then the pairs' minima towards v[0] and their maxima towards v[s-1], about 3s/2 exchanges.
template <class L, class W, int S, int N>
__device__ __forceinline__ void extremes(W (&v)[N]) {
#pragma unroll
  for (int i = 0; i + 1 < S; i += 2) exchange<L>(v[i], v[i + 1]);
#pragma unroll
  for (int i = 2; i < S; i += 2) exchange<L>(v[0], v[i]);  // minima at even slots (and an odd S's last)
  if constexpr (S % 2 == 1) exchange<L>(v[0], v[S - 1]);
#pragma unroll
  for (int i = 1; i < S - 1; i += 2) exchange<L>(v[i], v[S - 1]);  // maxima at odd slots, into v[S-1]
}

// Forgetful selection (the median of N values, N odd, M = N / 2): the smallest and the largest of M + 2 values
// cannot be the median (each has M + 1 others on one side), so both are dropped and the next value is taken,
// until three remain, whose middle is the median. Only M + 2 values are live (14 for 5x5), and about 250 min/max
// select a 5x5 median, where a full sorting network would need several times that.
// One step per value Next .. Last - 1 (read by get.operator()<k>()): the set v[0 .. S) loses its extremes and
// takes the value.
template <class L, class W, int S, int N, int Next, int Last, class Get>
__device__ __forceinline__ void forget(W (&v)[N], const Get& get) {
  if constexpr (Next < Last) {
    extremes<L, W, S>(v);
    v[0] = get.template operator()<Next>();  // the minimum is forgotten, the maximum (v[S-1]) leaves the set
    forget<L, W, S - 1, N, Next + 1, Last>(v, get);
  }
}

// The medians, by forgetful selection, of two windows of N values that share NC of them (vertically adjacent
// outputs of a 5x5 or 7x7 median share 2R of their 2R+1 rows), read by common.operator()<k>() and
// own_a / own_b.operator()<k>(). The steps over the shared values, and one more drop of the extremes, hold for
// both windows: a set of s values with u still unread may lose its smallest and largest while s >= u + 2, and
// after the shared values each window has u = N - NC unread with s = u + 3. Only the last few steps run twice:
// for 5x5 about 115 exchanges shared and 33 each, where two separate selections take about 150 each.
template <class L, int N, int NC, class Common, class OwnA, class OwnB, class W>
__device__ __forceinline__ void forgetful_median_pair(const Common& common, const OwnA& own_a, const OwnB& own_b,
                                                      W& a, W& b) {
  constexpr int M = N / 2;
  constexpr int S0 = M + 2;        // the first set: M + 2 shared values
  constexpr int S1 = 2 * S0 - NC;  // its size once every shared value is read
  constexpr int S2 = S1 - 1;       // its extremes dropped, a window's first own value added
  static_assert(N % 2 == 1 && NC >= S0 && S2 - 2 == N - NC, "a window pair the selection does not cover");
  W v[S0];
  [&]<int... K>(std::integer_sequence<int, K...>) { ((v[K] = common.template operator()<K>()), ...); }
  (std::make_integer_sequence<int, S0>{});
  forget<L, W, S0, S0, S0, NC>(v, common);
  extremes<L, W, S1>(v);  // v[1 .. S1 - 2] stay
  W va[S2], vb[S2];
  va[0] = own_a.template operator()<0>();
  vb[0] = own_b.template operator()<0>();
#pragma unroll
  for (int i = 1; i < S2; ++i) va[i] = vb[i] = v[i];
  forget<L, W, S2, S2, 1, N - NC>(va, own_a);  // down to three values each
  forget<L, W, S2, S2, 1, N - NC>(vb, own_b);
  a = median3<L>(va[0], va[1], va[2]);
  b = median3<L>(vb[0], vb[1], vb[2]);
}

// The medians of two horizontally adjacent 3x3 windows from sorted columns F .. F + 3 (the first window F .. F + 2,
// the second F + 1 .. F + 3): the two share the order of their common columns' minima, maxima and middles (20
// min/max for the pair instead of 24).
template <class L, int F, class W, int N>
__device__ __forceinline__ void median9_adjacent(const W (&lo)[N], const W (&mid)[N], const W (&hi)[N], W& a, W& b) {
  static_assert(F + 3 < N);
  const W lo12 = L::hi(lo[F + 1], lo[F + 2]), hi12 = L::lo(hi[F + 1], hi[F + 2]);
  const W mlo = L::lo(mid[F + 1], mid[F + 2]), mhi = L::hi(mid[F + 1], mid[F + 2]);
  // The middle of three: median3(m1, m2, m) = max(min(m1, m2), min(max(m1, m2), m)).
  a = median3<L>(L::hi(lo[F], lo12), L::hi(mlo, L::lo(mhi, mid[F])), L::lo(hi[F], hi12));
  b = median3<L>(L::hi(lo12, lo[F + 3]), L::hi(mlo, L::lo(mhi, mid[F + 3])), L::lo(hi12, hi[F + 3]));
}

}  // namespace ks::cuda
