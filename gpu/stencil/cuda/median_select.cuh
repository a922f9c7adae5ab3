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

template <class L, class W, int S, int N, int Next, class Get>
__device__ __forceinline__ void forget(W (&v)[N], const Get& get) {
  if constexpr (S > 3) {
    extremes<L, W, S>(v);
    v[0] = get.template operator()<Next>();  // the minimum is forgotten, the maximum (v[S-1]) leaves the set
    forget<L, W, S - 1, N, Next + 1>(v, get);
  }
}

// Forgetful selection: the median of N values (N odd) read in order by get.operator()<k>(), with M + 2 of them
// in registers (M = N / 2): the smallest and the largest of M + 2 values cannot be the median (each has M + 1
// others on one side), so both are dropped and the next value is taken, until three remain. For 5x5: 14 values
// live and about 250 min/max, where a full sorting network would need several times that.
template <class L, int N, class Get>
__device__ __forceinline__ auto forgetful_median(const Get& get) {
  using W = decltype(get.template operator()<0>());
  constexpr int M = N / 2;
  W v[M + 2];
  [&]<int... K>(std::integer_sequence<int, K...>) { ((v[K] = get.template operator()<K>()), ...); }
  (std::make_integer_sequence<int, M + 2>{});
  forget<L, W, M + 2, M + 2, M + 2>(v, get);
  return median3<L>(v[0], v[1], v[2]);
}

}  // namespace ks::cuda
