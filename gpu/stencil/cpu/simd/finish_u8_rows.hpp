#pragma once
// The U8 finishing steps in SIMD (Google Highway), giving the reference's bytes (finish_u8.hpp,
// round_divider.hpp): the same float operations, each rounded once as there (no fused multiply-add), with
// clamps in place of the branches.
#include <cstddef>
#include <cstdint>

#include "stencil/cpu/round_divider.hpp"

namespace ks::cpu::simd {

// Each takes the exact integer sums as int32 or, for filters whose sums fit, int16 (simd_arithmetic.hpp).

// out[i] = saturate_u8(round_div(sum[i], divisor)): divisor 1 as a saturating narrowing, the divider's Float
// and Shift modes in SIMD (its Scalar mode, for rare large divisors, runs the reference loop).
void round_divide_rows(const RoundDivider& divider, const std::int32_t* sum, std::uint8_t* out,
                       std::size_t n);
void round_divide_rows(const RoundDivider& divider, const std::int16_t* sum, std::uint8_t* out,
                       std::size_t n);
// out[i] = magnitude_u8(a[i], b[i]) (stencil_math.hpp); a^2 + b^2 must fit int32 (plan_check makes sure).
void magnitude_u8_rows(const std::int32_t* a, const std::int32_t* b, std::uint8_t* out, std::size_t n);
void magnitude_u8_rows(const std::int16_t* a, const std::int16_t* b, std::uint8_t* out, std::size_t n);
// out[i] = unsharp_u8(src[i], blur_sum[i], divisor, amount) (stencil_math.hpp); `amount` finite.
void unsharp_u8_rows(const std::uint8_t* src, const std::int32_t* blur_sum, std::uint8_t* out, std::size_t n,
                     std::int32_t divisor, float amount);
void unsharp_u8_rows(const std::uint8_t* src, const std::int16_t* blur_sum, std::uint8_t* out, std::size_t n,
                     std::int32_t divisor, float amount);

}  // namespace ks::cpu::simd
