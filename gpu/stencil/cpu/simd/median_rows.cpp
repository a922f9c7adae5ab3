// Highway compiles this file once per instruction set (foreach_target.h re-includes it); the functions at the
// end dispatch to the best one the CPU supports.
// clang-format off: foreach_target.h must follow HWY_TARGET_INCLUDE and come before highway.h.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "stencil/cpu/simd/median_rows.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// clang-format on
#include <cstddef>
#include <cstdint>
#include <utility>

#include "hwy/aligned_allocator.h"
#include "hwy/highway.h"
#include "stencil/cpu/median_network.hpp"
#include "stencil/cpu/simd/median_rows.hpp"
#include "stencil/cpu/simd/vector_loop-inl.h"

HWY_BEFORE_NAMESPACE();
namespace ks::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// a, b, c sorted in place: 3 comparators.
template <class V>
HWY_INLINE void sort3(V& a, V& b, V& c) {
  const V lo_ab = hn::Min(a, b), hi_ab = hn::Max(a, b);
  a = hn::Min(lo_ab, c);
  const V mid = hn::Max(lo_ab, c);
  b = hn::Min(hi_ab, mid);
  c = hn::Max(hi_ab, mid);
}

template <class V>
HWY_INLINE V median3(V a, V b, V c) {
  return hn::Max(hn::Min(a, b), hn::Min(hn::Max(a, b), c));
}

// The median of nine values is the median of three: the largest of the column lows, the median of the column
// middles and the smallest of the column highs, once each column of three is sorted (the identity behind
// Paeth's and Devillard's 3x3 median networks). The tests check it on every 0-1 window, which covers all
// inputs: min/max formulas commute with monotone maps, as the median does (the 0-1 principle).
// Named vectors, not arrays: Highway's scalable targets (Arm SVE) have sizeless vector types.
template <class D, class T = hn::TFromD<D>>
HWY_INLINE hn::Vec<D> median_3x3(D d, const T* const* rows, std::size_t ch, std::size_t e) {
  using V = hn::Vec<D>;
  V lo0 = hn::LoadU(d, rows[0] + e), mid0 = hn::LoadU(d, rows[1] + e), hi0 = hn::LoadU(d, rows[2] + e);
  V lo1 = hn::LoadU(d, rows[0] + e + ch), mid1 = hn::LoadU(d, rows[1] + e + ch),
    hi1 = hn::LoadU(d, rows[2] + e + ch);
  V lo2 = hn::LoadU(d, rows[0] + e + 2 * ch), mid2 = hn::LoadU(d, rows[1] + e + 2 * ch),
    hi2 = hn::LoadU(d, rows[2] + e + 2 * ch);
  sort3(lo0, mid0, hi0);
  sort3(lo1, mid1, hi1);
  sort3(lo2, mid2, hi2);
  const V largest_low = hn::Max(hn::Max(lo0, lo1), lo2);
  const V smallest_high = hn::Min(hn::Min(hi0, hi1), hi2);
  return median3(largest_low, median3(mid0, mid1, mid2), smallest_high);
}

// One comparator on the buffer of vectors.
template <class D, class T>
HWY_INLINE void compare_exchange(D d, T* buf, std::size_t lo, std::size_t hi) {
  const std::size_t N = hn::Lanes(d);
  const auto a = hn::Load(d, buf + lo * N), b = hn::Load(d, buf + hi * N);
  hn::Store(hn::Min(a, b), d, buf + lo * N);
  hn::Store(hn::Max(a, b), d, buf + hi * N);
}

// The (K x K)-tap network of the reference, unrolled: each comparator a load pair, min, max, store pair on a
// small buffer that stays in L1 (K*K vectors do not fit in registers).
template <int kTaps, class D, class T, std::size_t... I>
HWY_INLINE void run_network(D d, T* buf, std::index_sequence<I...>) {
  constexpr const auto& network = kMedianNetwork<kTaps>;
  (compare_exchange(d, buf, std::size_t(network[I].first), std::size_t(network[I].second)), ...);
}

template <int K, class D, class T = hn::TFromD<D>>
HWY_INLINE hn::Vec<D> median_by_network(D d, const T* const* rows, std::size_t ch, std::size_t e, T* buf) {
  constexpr int kTaps = K * K;
  const std::size_t N = hn::Lanes(d);
  for (int j = 0; j < K; ++j)
    for (int k = 0; k < K; ++k)
      hn::Store(hn::LoadU(d, rows[j] + e + std::size_t(k) * ch), d, buf + std::size_t(j * K + k) * N);
  run_network<kTaps>(d, buf, std::make_index_sequence<kMedianNetwork<kTaps>.size()>());
  return hn::Load(d, buf + std::size_t(kTaps / 2) * N);
}

template <int K, class D, class T = hn::TFromD<D>>
HWY_INLINE hn::Vec<D> median_window(D d, const T* const* rows, std::size_t ch, std::size_t e, T* buf) {
  if constexpr (K == 3) {
    (void)buf;
    return median_3x3(d, rows, ch, e);
  } else {
    return median_by_network<K>(d, rows, ch, e, buf);
  }
}

template <int K, class T>
HWY_INLINE void median_row_of(const T* const* rows, std::size_t ch, T* out, std::size_t n) {
  // The network's buffer: K*K full vectors (the one-lane tail uses the start of it); the 3x3 formula keeps
  // its nine vectors in registers and needs none (no allocation per row).
  hwy::AlignedFreeUniquePtr<T[]> buf;
  if constexpr (K > 3) buf = hwy::AllocateAligned<T>(std::size_t(K * K) * hn::Lanes(hn::ScalableTag<T>()));
  for_vectors<T>(
      n, [&](auto d, std::size_t e) { hn::StoreU(median_window<K>(d, rows, ch, e, buf.get()), d, out + e); });
}

template <class T>
HWY_INLINE void median_row_radius(const T* const* rows, int radius, std::size_t ch, T* out, std::size_t n) {
  switch (radius) {
    case 1:
      return median_row_of<3>(rows, ch, out, n);
    case 2:
      return median_row_of<5>(rows, ch, out, n);
    case 3:
      return median_row_of<7>(rows, ch, out, n);
  }
}

void MedianRowU8(const std::uint8_t* const* rows, int radius, std::size_t ch, std::uint8_t* out,
                 std::size_t n) {
  median_row_radius(rows, radius, ch, out, n);
}
void MedianRowF32(const float* const* rows, int radius, std::size_t ch, float* out, std::size_t n) {
  median_row_radius(rows, radius, ch, out, n);
}

}  // namespace ks::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ks::cpu::simd {

HWY_EXPORT(MedianRowU8);
HWY_EXPORT(MedianRowF32);

void median_row(const std::uint8_t* const* rows, int radius, std::size_t channels, std::uint8_t* out,
                std::size_t n) {
  HWY_DYNAMIC_DISPATCH(MedianRowU8)(rows, radius, channels, out, n);
}
void median_row(const float* const* rows, int radius, std::size_t channels, float* out, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(MedianRowF32)(rows, radius, channels, out, n);
}

}  // namespace ks::cpu::simd
#endif  // HWY_ONCE
