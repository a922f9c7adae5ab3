#pragma once
// The inner loop of every linear CPU stencil in SIMD (Google Highway): out[i] = sum over taps t of
// w[t] * rows[t][i] for i in [0, n). A horizontal pass gives one padded row at offsets k * channels, a
// vertical pass the rows of horizontal sums, the 2-D window both. Each call runs the best instruction set of
// this CPU (Highway's run-time dispatch; simd_target.hpp says which).
//   float rows, float weights: sums in float (fused multiply-adds where the CPU has them), within the f32
//     tolerance of the scalar reference, which sums in double
//   u8 or int32 rows, int32 weights: exact int32 sums, the same integers as the reference (plan_check bounds
//     every U8 sum below 2^31)
//   u8 or int16 rows, int16 weights: exact int16 sums, twice the lanes, for filters whose every U8 sum stays
//     within int16 (the caller checks: stencil_plan.hpp's u8_sums_fit_int16)
// Taps of weight 0 are skipped (sobel's middle column); without taps the sums are 0.
#include <cstddef>
#include <cstdint>

namespace ks::cpu::simd {

void weighted_rows(const float* const* rows, const float* w, int taps, float* out, std::size_t n);
void weighted_rows(const std::uint8_t* const* rows, const std::int32_t* w, int taps, std::int32_t* out,
                   std::size_t n);
void weighted_rows(const std::int32_t* const* rows, const std::int32_t* w, int taps, std::int32_t* out,
                   std::size_t n);
void weighted_rows(const std::uint8_t* const* rows, const std::int16_t* w, int taps, std::int16_t* out,
                   std::size_t n);
void weighted_rows(const std::int16_t* const* rows, const std::int16_t* w, int taps, std::int16_t* out,
                   std::size_t n);

// Four output rows of a column sweep at once: out[r][i] = sum over taps t of w[t] * rows[t + r][i] for r < 4,
// i in [0, n); `rows` holds taps + 3 rows. Every row is loaded once for the four sums it feeds (see
// weighted_rows.cpp).
void weighted_rows_x4(const float* const* rows, const float* w, int taps, float* const* out, std::size_t n);
void weighted_rows_x4(const std::int32_t* const* rows, const std::int32_t* w, int taps,
                      std::int32_t* const* out, std::size_t n);
void weighted_rows_x4(const std::int16_t* const* rows, const std::int16_t* w, int taps,
                      std::int16_t* const* out, std::size_t n);

}  // namespace ks::cpu::simd
