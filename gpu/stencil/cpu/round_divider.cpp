#include "stencil/cpu/round_divider.hpp"

#include "stencil/cpu/row_ops.hpp"
#include "stencil/stencil_math.hpp"

namespace ks::cpu {

void RoundDivider::apply(const std::int32_t* __restrict sum, std::uint8_t* __restrict out,
                         std::size_t n) const {
  switch (c_.mode) {
    case Mode::Float: {
      const float hi = c_.hi, bias = c_.bias, inv = c_.inv;
      for_lanes(n, [&](std::size_t i) {
        float c = float(sum[i]);
        c = c < 0.f ? 0.f : c;
        c = c > hi ? hi : c;
        out[i] = std::uint8_t(std::int32_t((c + bias) * inv));
      });
      break;
    }
    case Mode::Shift: {
      const int s = c_.shift;
      const std::int32_t mask = c_.d - 1, half = c_.d / 2;
      for_lanes(n, [&](std::size_t i) {
        const std::int32_t q = (sum[i] >> s) + std::int32_t((sum[i] & mask) >= half);  // >>: floor
        float f = float(q);  // saturated in float: packed int32 min/max are not baseline x86-64
        f = f < 0.f ? 0.f : f;
        f = f > 255.f ? 255.f : f;
        out[i] = std::uint8_t(std::int32_t(f));
      });
      break;
    }
    case Mode::Scalar:
      for (std::size_t i = 0; i < n; ++i) out[i] = saturate_u8(round_div(sum[i], c_.d));
      break;
  }
}

}  // namespace ks::cpu
