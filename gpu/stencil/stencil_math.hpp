#pragma once
// Scalar arithmetic shared by the CPU reference and the CUDA kernels, written so that both round alike.
#include <cstdint>

#include "core/hd.hpp"
#include "core/rounded_math.hpp"  // mul_rn, add_rn, div_rn, sqrt_rn

namespace ks {

// floor(sum / divisor + 1/2) for divisor > 0, exact for any int64 sum.
KS_HD std::int64_t round_div(std::int64_t sum, std::int32_t divisor) {
  std::int64_t num = 2 * sum + divisor;
  std::int64_t den = 2 * std::int64_t(divisor);
  std::int64_t q = num / den;
  return (num % den != 0 && num < 0) ? q - 1 : q;
}

KS_HD std::uint8_t saturate_u8(std::int64_t v) {
  return static_cast<std::uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v));
}

// Rounds half up and saturates a float to 0..255 (NaN -> 0).
KS_HD std::uint8_t saturate_u8(float v) {
  if (!(v > 0.f)) return 0;
  if (v >= 255.f) return 255;
  return static_cast<std::uint8_t>(static_cast<int>(v + 0.5f));
}

// U8 unsharp mask, as stencil_plan.hpp specifies.
KS_HD std::uint8_t unsharp_u8(std::uint8_t src, std::int32_t blur_sum, std::int32_t divisor, float amount) {
  float s = float(src);
  float blur = div_rn(float(blur_sum), float(divisor));
  float v = add_rn(s, mul_rn(amount, add_rn(s, -blur)));
  return saturate_u8(v);
}

// U8 gradient magnitude, as stencil_plan.hpp specifies.
KS_HD std::uint8_t magnitude_u8(std::int32_t a, std::int32_t b) {
  return saturate_u8(sqrt_rn(float(a * a + b * b)));
}

}  // namespace ks
