// Highway compiles this file once per instruction set (foreach_target.h re-includes it); the functions at the
// end dispatch to the best one the CPU supports.
// clang-format off: foreach_target.h must follow HWY_TARGET_INCLUDE and come before highway.h.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "stencil/cpu/simd/finish_u8_rows.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// clang-format on
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "hwy/highway.h"
#include "stencil/cpu/simd/finish_u8_rows.hpp"
#include "stencil/cpu/simd/vector_loop-inl.h"

HWY_BEFORE_NAMESPACE();
namespace ks::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Values already within 0..255 (int32 lanes) stored as bytes.
template <class D>
HWY_INLINE void store_bytes(D /*d*/, hn::Vec<D> v, std::uint8_t* out) {
  const hn::Rebind<std::uint8_t, D> d8;
  hn::StoreU(hn::DemoteTo(d8, v), d8, out);
}

// saturate_u8(float v) for v that is not NaN: t = v + 0.5f truncated, with t clamped to [0.5, 255] instead of
// branching (v <= 0 gives 0, v >= 255 gives 255, as saturate_u8 does; finish_u8.cpp says why).
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToSigned<DF>> saturate_to_int(DF df, hn::Vec<DF> v) {
  auto t = hn::Add(v, hn::Set(df, 0.5f));
  t = hn::Min(hn::Max(t, hn::Set(df, 0.5f)), hn::Set(df, 255.f));
  return hn::ConvertTo(hn::RebindToSigned<DF>(), t);  // truncates, as the cast does
}

// Lanes of sums as int32: int32 sums as they are, int16 ones widened.
template <class D, class S>
HWY_INLINE hn::Vec<D> load_sums(D d, const S* p) {
  if constexpr (std::is_same_v<S, std::int32_t>) {
    return hn::LoadU(d, p);
  } else {
    return hn::PromoteTo(d, hn::LoadU(hn::Rebind<S, D>(), p));
  }
}

template <class S>
HWY_INLINE void saturate_rows(const S* sum, std::uint8_t* out, std::size_t n) {
  // Divisor 1 (derivatives, the Laplacian): round_div(sum, 1) is the sum, and saturate_u8 its clamp to
  // 0..255, in the sums' own lanes (int16 sums narrow twice as many at once). The narrowing of int16
  // saturates by itself; int32 sums are clamped first: Highway 1.0.3's AVX-512 int32 -> u8 narrowing wraps
  // 32768..65535 (it clears the top bit of the u16 it saturates to), which the tests caught.
  for_vectors<S>(n, [&](auto d, std::size_t i) {
    const hn::Rebind<std::uint8_t, decltype(d)> d8;
    auto v = hn::LoadU(d, sum + i);
    if constexpr (sizeof(S) > 2) v = hn::Min(hn::Max(v, hn::Zero(d)), hn::Set(d, S(255)));
    hn::StoreU(hn::DemoteTo(d8, v), d8, out + i);
  });
}

template <class S>
HWY_INLINE void round_divide_float(const S* sum, std::uint8_t* out, std::size_t n, float hi, float bias,
                                   float inv) {
  // RoundDivider::apply's Float mode: float(sum) clamped to [0, hi], (c + bias) * inv truncated.
  for_vectors<std::int32_t>(n, [&](auto d, std::size_t i) {
    const hn::RebindToFloat<decltype(d)> df;
    auto c = hn::ConvertTo(df, load_sums(d, sum + i));
    c = hn::Min(hn::Max(c, hn::Zero(df)), hn::Set(df, hi));
    const auto q = hn::Mul(hn::Add(c, hn::Set(df, bias)), hn::Set(df, inv));
    store_bytes(d, hn::ConvertTo(d, q), out + i);
  });
}

template <class S>
HWY_INLINE void round_divide_shift(const S* sum, std::uint8_t* out, std::size_t n, int shift) {
  // RoundDivider::apply's Shift mode: floor(sum / 2^shift) + (sum mod 2^shift >= 2^(shift-1)), clamped.
  const std::int32_t mask = (std::int32_t(1) << shift) - 1, half = (std::int32_t(1) << shift) / 2;
  for_vectors<std::int32_t>(n, [&](auto d, std::size_t i) {
    const auto s = load_sums(d, sum + i);
    const auto floor = hn::ShiftRightSame(s, shift);  // arithmetic: floor for negative sums too
    const auto low = hn::And(s, hn::Set(d, mask));
    // + 1 where low >= half (Highway 1.0.3 compares integers with < and > only)
    const auto q = hn::Add(floor, hn::IfThenZeroElse(hn::Lt(low, hn::Set(d, half)), hn::Set(d, 1)));
    store_bytes(d, hn::Min(hn::Max(q, hn::Zero(d)), hn::Set(d, 255)), out + i);
  });
}

template <class S>
HWY_INLINE void magnitude_u8(const S* a, const S* b, std::uint8_t* out, std::size_t n) {
  // magnitude_u8: saturate_u8(sqrt(float(a*a + b*b))). From n = 65281 on (sqrt > 255.5) every result is 255,
  // so n is capped there first: then float(n) is exact, and sqrt, correctly rounded on every target, gives
  // the reference's float.
  for_vectors<std::int32_t>(n, [&](auto d, std::size_t i) {
    const hn::RebindToFloat<decltype(d)> df;
    const auto va = load_sums(d, a + i), vb = load_sums(d, b + i);
    const auto m = hn::Min(hn::Add(hn::Mul(va, va), hn::Mul(vb, vb)), hn::Set(d, 65281));
    store_bytes(d, saturate_to_int(df, hn::Sqrt(hn::ConvertTo(df, m))), out + i);
  });
}

template <class S>
HWY_INLINE void unsharp_u8(const std::uint8_t* src, const S* blur_sum, std::uint8_t* out, std::size_t n,
                           std::int32_t divisor, float amount) {
  // unsharp_u8: v = s + amount * (s - sum / divisor), each operation rounded once, then saturated.
  for_vectors<std::int32_t>(n, [&](auto d, std::size_t i) {
    const hn::RebindToFloat<decltype(d)> df;
    const auto s =
        hn::ConvertTo(df, hn::PromoteTo(d, hn::LoadU(hn::Rebind<std::uint8_t, decltype(d)>(), src + i)));
    const auto blur = hn::Div(hn::ConvertTo(df, load_sums(d, blur_sum + i)), hn::Set(df, float(divisor)));
    const auto v = hn::Add(s, hn::Mul(hn::Set(df, amount), hn::Sub(s, blur)));
    store_bytes(d, saturate_to_int(df, v), out + i);
  });
}

// The entry points, per sum type (Highway exports plain functions, not templates).
void SaturateRowsI32(const std::int32_t* sum, std::uint8_t* out, std::size_t n) {
  saturate_rows(sum, out, n);
}
void SaturateRowsI16(const std::int16_t* sum, std::uint8_t* out, std::size_t n) {
  saturate_rows(sum, out, n);
}
void RoundDivideFloatI32(const std::int32_t* sum, std::uint8_t* out, std::size_t n, float hi, float bias,
                         float inv) {
  round_divide_float(sum, out, n, hi, bias, inv);
}
void RoundDivideFloatI16(const std::int16_t* sum, std::uint8_t* out, std::size_t n, float hi, float bias,
                         float inv) {
  round_divide_float(sum, out, n, hi, bias, inv);
}
void RoundDivideShiftI32(const std::int32_t* sum, std::uint8_t* out, std::size_t n, int shift) {
  round_divide_shift(sum, out, n, shift);
}
void RoundDivideShiftI16(const std::int16_t* sum, std::uint8_t* out, std::size_t n, int shift) {
  round_divide_shift(sum, out, n, shift);
}
void MagnitudeU8I32(const std::int32_t* a, const std::int32_t* b, std::uint8_t* out, std::size_t n) {
  magnitude_u8(a, b, out, n);
}
void MagnitudeU8I16(const std::int16_t* a, const std::int16_t* b, std::uint8_t* out, std::size_t n) {
  magnitude_u8(a, b, out, n);
}
void UnsharpU8I32(const std::uint8_t* src, const std::int32_t* blur_sum, std::uint8_t* out, std::size_t n,
                  std::int32_t divisor, float amount) {
  unsharp_u8(src, blur_sum, out, n, divisor, amount);
}
void UnsharpU8I16(const std::uint8_t* src, const std::int16_t* blur_sum, std::uint8_t* out, std::size_t n,
                  std::int32_t divisor, float amount) {
  unsharp_u8(src, blur_sum, out, n, divisor, amount);
}

}  // namespace ks::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ks::cpu::simd {

HWY_EXPORT(SaturateRowsI32);
HWY_EXPORT(SaturateRowsI16);
HWY_EXPORT(RoundDivideFloatI32);
HWY_EXPORT(RoundDivideFloatI16);
HWY_EXPORT(RoundDivideShiftI32);
HWY_EXPORT(RoundDivideShiftI16);
HWY_EXPORT(MagnitudeU8I32);
HWY_EXPORT(MagnitudeU8I16);
HWY_EXPORT(UnsharpU8I32);
HWY_EXPORT(UnsharpU8I16);

namespace {

// The divider's modes through the entry points for one sum type (HWY_DYNAMIC_DISPATCH's function pointers).
template <class S, class Saturate, class ByFloat, class ByShift>
void round_divide(const RoundDivider& divider, const S* sum, std::uint8_t* out, std::size_t n,
                  Saturate saturate, ByFloat by_float, ByShift by_shift) {
  const RoundDivider::Constants& c = divider.constants();
  if (c.d == 1) return saturate(sum, out, n);
  switch (c.mode) {
    case RoundDivider::Mode::Float:
      return by_float(sum, out, n, c.hi, c.bias, c.inv);
    case RoundDivider::Mode::Shift:
      return by_shift(sum, out, n, c.shift);
    case RoundDivider::Mode::Scalar: {  // the reference's loop, on int32 sums
      const std::vector<std::int32_t> wide(sum, sum + n);
      return divider.apply(wide.data(), out, n);
    }
  }
}

}  // namespace

void round_divide_rows(const RoundDivider& divider, const std::int32_t* sum, std::uint8_t* out,
                       std::size_t n) {
  round_divide(divider, sum, out, n, HWY_DYNAMIC_DISPATCH(SaturateRowsI32),
               HWY_DYNAMIC_DISPATCH(RoundDivideFloatI32), HWY_DYNAMIC_DISPATCH(RoundDivideShiftI32));
}
void round_divide_rows(const RoundDivider& divider, const std::int16_t* sum, std::uint8_t* out,
                       std::size_t n) {
  round_divide(divider, sum, out, n, HWY_DYNAMIC_DISPATCH(SaturateRowsI16),
               HWY_DYNAMIC_DISPATCH(RoundDivideFloatI16), HWY_DYNAMIC_DISPATCH(RoundDivideShiftI16));
}

void magnitude_u8_rows(const std::int32_t* a, const std::int32_t* b, std::uint8_t* out, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(MagnitudeU8I32)(a, b, out, n);
}
void magnitude_u8_rows(const std::int16_t* a, const std::int16_t* b, std::uint8_t* out, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(MagnitudeU8I16)(a, b, out, n);
}

void unsharp_u8_rows(const std::uint8_t* src, const std::int32_t* blur_sum, std::uint8_t* out, std::size_t n,
                     std::int32_t divisor, float amount) {
  HWY_DYNAMIC_DISPATCH(UnsharpU8I32)(src, blur_sum, out, n, divisor, amount);
}
void unsharp_u8_rows(const std::uint8_t* src, const std::int16_t* blur_sum, std::uint8_t* out, std::size_t n,
                     std::int32_t divisor, float amount) {
  HWY_DYNAMIC_DISPATCH(UnsharpU8I16)(src, blur_sum, out, n, divisor, amount);
}

}  // namespace ks::cpu::simd
#endif  // HWY_ONCE
