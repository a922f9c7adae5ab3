#pragma once
// saturate_u8(round_div(sum, divisor)) over a row of int32 window sums, bit-exact with stencil_math.hpp but
// without a 64-bit division per pixel (which would cost more than the whole box filter), and with no integer
// min/max (baseline x86-64 has no packed int32 min/max; float ones it has).
//
// Why it is exact:
// - round_div is monotone in `sum`, so clamping sum to [0, 255*d] first changes nothing after saturation
//   (round_div(0, d) = 0, round_div(255*d, d) = 255).
// - round_div(c, d) = floor((2c + d) / 2d) = floor((c + h + 1/2) / d) with h = floor(d/2): for odd d that is
// the
//   same fraction; for even d it is floor((c + h) / d), and adding 1/2 to the integer c + h cannot reach the
//   next multiple of d.
// - Float mode, when 255*d + h + 1 < 2^22: after the clamp (exact: in-range sums are < 2^22, and out-of-range
//   ones become the exact bound) t = c + h + 1/2 is exact in float, and t / d lies at least 1/(2d) away from
//   an integer. fl(t * fl(1/d)) is within t/d * 2^-23 (1 + 2^-25) < 1/(2d) of t/d, so truncating it gives the
//   floor.
// - Shift mode, power-of-two d too large for floats (the gaussian's 2^22): floor(sum / d) + (sum mod d >= h),
//   which cannot overflow.
// - Anything else (large non-power-of-two divisors, rare) takes the scalar definition.
#include <cstddef>
#include <cstdint>

namespace ks::cpu {

class RoundDivider {
 public:
  enum class Mode { Float, Shift, Scalar };
  // What a mode computes with (the SIMD path's divider, simd/finish_u8_rows.hpp, runs the same operations).
  struct Constants {
    Mode mode = Mode::Scalar;
    std::int32_t d = 1;
    float hi = 0.f, bias = 0.f, inv = 0.f;  // Float: clamp to [0, hi], add bias, multiply by inv, truncate
    int shift = 0;                          // Shift: d = 2^shift
  };

  explicit RoundDivider(std::int32_t divisor) {  // divisor > 0
    c_.d = divisor;
    const std::int64_t d = divisor;
    if (255 * d + d / 2 + 1 < (std::int64_t(1) << 22)) {
      c_.mode = Mode::Float;
      c_.hi = float(255 * d);
      c_.bias = float(d / 2) + 0.5f;
      c_.inv = 1.0f / float(d);
    } else if ((d & (d - 1)) == 0) {
      c_.mode = Mode::Shift;
      while ((std::int64_t(1) << c_.shift) != d) ++c_.shift;
    } else {
      c_.mode = Mode::Scalar;
    }
  }

  const Constants& constants() const noexcept { return c_; }

  // out[i] = saturate_u8(round_div(sum[i], divisor))
  void apply(const std::int32_t* __restrict sum, std::uint8_t* __restrict out, std::size_t n) const;

 private:
  Constants c_;
};

}  // namespace ks::cpu
