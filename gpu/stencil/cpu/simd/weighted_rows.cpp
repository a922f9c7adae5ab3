// Highway compiles this file once per instruction set (foreach_target.h re-includes it); HWY_EXPORT and
// HWY_DYNAMIC_DISPATCH at the end pick the best one the CPU supports at run time.
// clang-format off: foreach_target.h must follow HWY_TARGET_INCLUDE and come before highway.h.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "stencil/cpu/simd/weighted_rows.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// clang-format on
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "hwy/highway.h"
#include "stencil/cpu/simd/weighted_rows.hpp"

HWY_BEFORE_NAMESPACE();
namespace ks::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Lanes of a row in the sum's type: floats as they are, u8 widened to int32 or int16.
template <class D, class Src>
HWY_INLINE hn::Vec<D> load_as(D d, const Src* p) {
  if constexpr (std::is_same_v<Src, hn::TFromD<D>>) {
    return hn::LoadU(d, p);
  } else {
    return hn::PromoteTo(d, hn::LoadU(hn::Rebind<Src, D>(), p));
  }
}

// acc + w * x. Integer weights of +-1 (box filters, derivatives) skip the multiply: packed int32 multiplies
// are slow on x86, and these weights are the common case.
template <class V, class T>
HWY_INLINE V add_weighted(V acc, V x, V wv, T w) {
  if constexpr (hwy::IsFloat<T>()) {
    return hn::MulAdd(wv, x, acc);
  } else {
    if (w == 1) return hn::Add(acc, x);
    if (w == -1) return hn::Sub(acc, x);
    return hn::Add(acc, hn::Mul(wv, x));
  }
}

// The sums of four vectors of lanes from element i, kept in registers across all taps: one load and one
// multiply-add per tap and vector, one store per vector (not a read-modify-write of a row per tap).
template <class D, class Src>
HWY_INLINE void four_vectors(D d, const Src* const* rows, const hn::TFromD<D>* w, int taps, std::size_t i,
                             hn::TFromD<D>* out) {
  const std::size_t N = hn::Lanes(d);
  auto a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
  for (int t = 0; t < taps; ++t) {
    if (w[t] == 0) continue;
    const auto wv = hn::Set(d, w[t]);
    const Src* p = rows[t] + i;
    a0 = add_weighted(a0, load_as(d, p), wv, w[t]);
    a1 = add_weighted(a1, load_as(d, p + N), wv, w[t]);
    a2 = add_weighted(a2, load_as(d, p + 2 * N), wv, w[t]);
    a3 = add_weighted(a3, load_as(d, p + 3 * N), wv, w[t]);
  }
  hn::StoreU(a0, d, out + i);
  hn::StoreU(a1, d, out + i + N);
  hn::StoreU(a2, d, out + i + 2 * N);
  hn::StoreU(a3, d, out + i + 3 * N);
}

// One vector of lanes from element i (also the one-lane tail, with a one-lane D: the same operations, so a
// row's last elements round as the others do).
template <class D, class Src>
HWY_INLINE void one_vector(D d, const Src* const* rows, const hn::TFromD<D>* w, int taps, std::size_t i,
                           hn::TFromD<D>* out) {
  auto acc = hn::Zero(d);
  for (int t = 0; t < taps; ++t) {
    if (w[t] == 0) continue;
    acc = add_weighted(acc, load_as(d, rows[t] + i), hn::Set(d, w[t]), w[t]);
  }
  hn::StoreU(acc, d, out + i);
}

template <class T, class Src>
HWY_INLINE void weighted_rows_of(const Src* const* rows, const T* w, int taps, T* out, std::size_t n) {
  const hn::ScalableTag<T> d;
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + 4 * N <= n; i += 4 * N) four_vectors(d, rows, w, taps, i, out);
  for (; i + N <= n; i += N) one_vector(d, rows, w, taps, i, out);
  const hn::CappedTag<T, 1> d1;
  for (; i < n; ++i) one_vector(d1, rows, w, taps, i, out);
}

// acc + w * x for the column sweeps below, whose weights are not known per tap in advance (no +-1 shortcut).
template <class V>
HWY_INLINE V multiply_add(V w, V x, V acc) {
  if constexpr (hwy::IsFloat<hn::TFromV<V>>()) {
    return hn::MulAdd(w, x, acc);
  } else {
    return hn::Add(acc, hn::Mul(w, x));
  }
}

// Four output rows at once: out[r][i] = sum over t of w[t] * rows[t + r][i]. Each loaded row feeds the four
// sums it belongs to, so a column sweep reads taps + 3 rows for four outputs instead of 4 * taps: the rows of
// a wide image (a ring of horizontal passes) sit in L2, and L2's bandwidth is what a one-row sweep waits on.
// `wpad` is w with three zeros on either side (wpad[3 + t] = w[t]), so that every row feeds all four sums
// without a branch. Two vectors of lanes per step (eight sums in registers, two loads per four broadcasts).
template <class D>
HWY_INLINE void four_rows_two_vectors(D d, const hn::TFromD<D>* const* rows, const hn::TFromD<D>* wpad,
                                      int taps, std::size_t i, hn::TFromD<D>* const* out) {
  const std::size_t N = hn::Lanes(d);
  auto a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
  auto b0 = hn::Zero(d), b1 = hn::Zero(d), b2 = hn::Zero(d), b3 = hn::Zero(d);
  for (int t = 0; t < taps + 3; ++t) {
    const auto x = hn::LoadU(d, rows[t] + i), y = hn::LoadU(d, rows[t] + i + N);
    const auto w0 = hn::Set(d, wpad[t + 3]), w1 = hn::Set(d, wpad[t + 2]);
    const auto w2 = hn::Set(d, wpad[t + 1]), w3 = hn::Set(d, wpad[t]);
    a0 = multiply_add(w0, x, a0);
    b0 = multiply_add(w0, y, b0);
    a1 = multiply_add(w1, x, a1);
    b1 = multiply_add(w1, y, b1);
    a2 = multiply_add(w2, x, a2);
    b2 = multiply_add(w2, y, b2);
    a3 = multiply_add(w3, x, a3);
    b3 = multiply_add(w3, y, b3);
  }
  hn::StoreU(a0, d, out[0] + i);
  hn::StoreU(b0, d, out[0] + i + N);
  hn::StoreU(a1, d, out[1] + i);
  hn::StoreU(b1, d, out[1] + i + N);
  hn::StoreU(a2, d, out[2] + i);
  hn::StoreU(b2, d, out[2] + i + N);
  hn::StoreU(a3, d, out[3] + i);
  hn::StoreU(b3, d, out[3] + i + N);
}

// The same for one vector of lanes (also the one-lane tail, with a one-lane D).
template <class D>
HWY_INLINE void four_rows_one_vector(D d, const hn::TFromD<D>* const* rows, const hn::TFromD<D>* wpad,
                                     int taps, std::size_t i, hn::TFromD<D>* const* out) {
  auto a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
  for (int t = 0; t < taps + 3; ++t) {
    const auto x = hn::LoadU(d, rows[t] + i);
    a0 = multiply_add(hn::Set(d, wpad[t + 3]), x, a0);
    a1 = multiply_add(hn::Set(d, wpad[t + 2]), x, a1);
    a2 = multiply_add(hn::Set(d, wpad[t + 1]), x, a2);
    a3 = multiply_add(hn::Set(d, wpad[t]), x, a3);
  }
  hn::StoreU(a0, d, out[0] + i);
  hn::StoreU(a1, d, out[1] + i);
  hn::StoreU(a2, d, out[2] + i);
  hn::StoreU(a3, d, out[3] + i);
}

template <class T>
HWY_INLINE void four_rows_of(const T* const* rows, const T* wpad, int taps, T* const* out, std::size_t n) {
  const hn::ScalableTag<T> d;
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) four_rows_two_vectors(d, rows, wpad, taps, i, out);
  for (; i + N <= n; i += N) four_rows_one_vector(d, rows, wpad, taps, i, out);
  const hn::CappedTag<T, 1> d1;
  for (; i < n; ++i) four_rows_one_vector(d1, rows, wpad, taps, i, out);
}

void FourRowsF32(const float* const* rows, const float* wpad, int taps, float* const* out, std::size_t n) {
  four_rows_of(rows, wpad, taps, out, n);
}
void FourRowsI32(const std::int32_t* const* rows, const std::int32_t* wpad, int taps,
                 std::int32_t* const* out, std::size_t n) {
  four_rows_of(rows, wpad, taps, out, n);
}
void FourRowsI16(const std::int16_t* const* rows, const std::int16_t* wpad, int taps,
                 std::int16_t* const* out, std::size_t n) {
  four_rows_of(rows, wpad, taps, out, n);
}

void WeightedRowsF32(const float* const* rows, const float* w, int taps, float* out, std::size_t n) {
  weighted_rows_of(rows, w, taps, out, n);
}
void WeightedRowsU8(const std::uint8_t* const* rows, const std::int32_t* w, int taps, std::int32_t* out,
                    std::size_t n) {
  weighted_rows_of(rows, w, taps, out, n);
}
void WeightedRowsI32(const std::int32_t* const* rows, const std::int32_t* w, int taps, std::int32_t* out,
                     std::size_t n) {
  weighted_rows_of(rows, w, taps, out, n);
}
void WeightedRowsU8ToI16(const std::uint8_t* const* rows, const std::int16_t* w, int taps, std::int16_t* out,
                         std::size_t n) {
  weighted_rows_of(rows, w, taps, out, n);
}
void WeightedRowsI16(const std::int16_t* const* rows, const std::int16_t* w, int taps, std::int16_t* out,
                     std::size_t n) {
  weighted_rows_of(rows, w, taps, out, n);
}

}  // namespace ks::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ks::cpu::simd {

HWY_EXPORT(WeightedRowsF32);
HWY_EXPORT(WeightedRowsU8);
HWY_EXPORT(WeightedRowsI32);
HWY_EXPORT(FourRowsF32);
HWY_EXPORT(FourRowsI32);
HWY_EXPORT(WeightedRowsU8ToI16);
HWY_EXPORT(WeightedRowsI16);
HWY_EXPORT(FourRowsI16);

void weighted_rows(const float* const* rows, const float* w, int taps, float* out, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(WeightedRowsF32)(rows, w, taps, out, n);
}
void weighted_rows(const std::uint8_t* const* rows, const std::int32_t* w, int taps, std::int32_t* out,
                   std::size_t n) {
  HWY_DYNAMIC_DISPATCH(WeightedRowsU8)(rows, w, taps, out, n);
}
void weighted_rows(const std::int32_t* const* rows, const std::int32_t* w, int taps, std::int32_t* out,
                   std::size_t n) {
  HWY_DYNAMIC_DISPATCH(WeightedRowsI32)(rows, w, taps, out, n);
}
void weighted_rows(const std::uint8_t* const* rows, const std::int16_t* w, int taps, std::int16_t* out,
                   std::size_t n) {
  HWY_DYNAMIC_DISPATCH(WeightedRowsU8ToI16)(rows, w, taps, out, n);
}
void weighted_rows(const std::int16_t* const* rows, const std::int16_t* w, int taps, std::int16_t* out,
                   std::size_t n) {
  HWY_DYNAMIC_DISPATCH(WeightedRowsI16)(rows, w, taps, out, n);
}

namespace {

// w with three zeros on either side, as the four-row sweep reads it. Made here, outside the per-target code:
// std:: templates instantiated between HWY_BEFORE_NAMESPACE and HWY_AFTER_NAMESPACE could be compiled for
// AVX-512 there and picked by the linker for every caller.
template <class T>
std::vector<T> padded_weights(const T* w, int taps) {
  std::vector<T> wpad(std::size_t(taps) + 6, T(0));
  std::copy(w, w + taps, wpad.begin() + 3);
  return wpad;
}

}  // namespace

void weighted_rows_x4(const float* const* rows, const float* w, int taps, float* const* out, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(FourRowsF32)(rows, padded_weights(w, taps).data(), taps, out, n);
}
void weighted_rows_x4(const std::int32_t* const* rows, const std::int32_t* w, int taps,
                      std::int32_t* const* out, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(FourRowsI32)(rows, padded_weights(w, taps).data(), taps, out, n);
}
void weighted_rows_x4(const std::int16_t* const* rows, const std::int16_t* w, int taps,
                      std::int16_t* const* out, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(FourRowsI16)(rows, padded_weights(w, taps).data(), taps, out, n);
}

}  // namespace ks::cpu::simd
#endif  // HWY_ONCE
