#include "stencil/cpu/finish_u8.hpp"

#include "stencil/cpu/row_ops.hpp"
#include "stencil/stencil_math.hpp"

namespace ks::cpu {

namespace {

// sqrt(65281) > 255.5: from here on every magnitude is 255.
constexpr std::int32_t kSaturatedMagnitude = 65281;

// saturate_u8(float) for non-NaN v, as clamps (selects) instead of branches. t = v + 0.5f is the sum
// saturate_u8 truncates:
//   v <= 0       -> saturate_u8 gives 0;  here t <= 0.5 is raised to 0.5, truncating to 0
//   0 < v < 255  -> int(v + 0.5f);        here the same t (>= 0.5), capped at 255 only if already >= 255
//   v >= 255     -> 255;                  here t > 255, capped to 255
inline std::uint8_t saturate_u8_select(float v) {
  float t = v + 0.5f;
  t = t < 0.5f ? 0.5f : t;
  t = t > 255.f ? 255.f : t;
  return std::uint8_t(std::int32_t(t));
}

}  // namespace

MagnitudeU8::MagnitudeU8() : table_(std::size_t(kSaturatedMagnitude) + 1) {
  // magnitude_u8 computes sqrt_rn(float(n)) with n exact in float (n < 2^24): the table holds its very
  // results.
  for (std::int32_t n = 0; n <= kSaturatedMagnitude; ++n)
    table_[std::size_t(n)] = saturate_u8(sqrt_rn(float(n)));
}

void MagnitudeU8::apply(const std::int32_t* __restrict a, const std::int32_t* __restrict b,
                        std::uint8_t* __restrict out, std::size_t n) const {
  const std::uint8_t* table = table_.data();
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t m = a[i] * a[i] + b[i] * b[i];  // < 2^31: the plan check bounds the sums
    out[i] = table[m < kSaturatedMagnitude ? m : kSaturatedMagnitude];
  }
}

void unsharp_u8_row(const std::uint8_t* __restrict src, const std::int32_t* __restrict blur_sum,
                    std::uint8_t* __restrict out, std::size_t n, std::int32_t divisor, float amount) {
  // The operations of unsharp_u8, in its order; NaN cannot arise with a finite amount.
  const float d = float(divisor);
  for_lanes(n, [&](std::size_t i) {
    const float s = float(src[i]);
    const float blur = div_rn(float(blur_sum[i]), d);
    out[i] = saturate_u8_select(add_rn(s, mul_rn(amount, add_rn(s, -blur))));
  });
}

}  // namespace ks::cpu
