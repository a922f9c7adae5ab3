#pragma once
// The SIMD path's arithmetic for the linear stencils (CpuPath::Simd), the counterpart of
// reference_arithmetic.hpp: U8 sums exact, F32 sums in float. `U8Sum` is the U8 sums' type: int32 in general,
// int16 where every sum of the plan fits (linear_cpu.cpp checks), which doubles the lanes of every vector and
// halves the ring of horizontal passes (the u8 box, Sobel, Laplacian). Either gives the reference's integers.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "stencil/cpu/round_divider.hpp"
#include "stencil/cpu/simd/finish_rows.hpp"
#include "stencil/cpu/simd/finish_u8_rows.hpp"
#include "stencil/cpu/simd/weighted_rows.hpp"

namespace ks::cpu {

template <class U8Sum>
struct SimdArithmeticOf {
  template <class Pix>
  using Acc = std::conditional_t<std::is_same_v<Pix, std::uint8_t>, U8Sum, float>;
  // Output rows summed per column sweep (linear_rows.hpp): four, through weighted_sum_x4.
  static constexpr int kRowsPerSweep = 4;

  // out[i] = sum over taps t of w[t] * rows[t][i]
  template <class Acc, class Src>
  static void weighted_sum(Acc* out, std::size_t n, const Src* const* rows, const Acc* w, int taps) {
    simd::weighted_rows(rows, w, taps, out, n);
  }
  // out[r][i] = sum over taps t of w[t] * rows[t + r][i] for r < 4
  template <class Acc>
  static void weighted_sum_x4(Acc* const* out, std::size_t n, const Acc* const* rows, const Acc* w,
                              int taps) {
    simd::weighted_rows_x4(rows, w, taps, out, n);
  }

  // The U8 results: the reference's bytes (finish_u8_rows.hpp).
  static void divide_u8(const RoundDivider& divider, const U8Sum* sum, std::uint8_t* out, std::size_t n) {
    simd::round_divide_rows(divider, sum, out, n);
  }
  struct MagnitudeU8 {
    void apply(const U8Sum* a, const U8Sum* b, std::uint8_t* out, std::size_t n) const {
      simd::magnitude_u8_rows(a, b, out, n);
    }
  };
  static void unsharp_u8(const std::uint8_t* src, const U8Sum* blur_sum, std::uint8_t* out, std::size_t n,
                         std::int32_t divisor, float amount) {
    simd::unsharp_u8_rows(src, blur_sum, out, n, divisor, amount);
  }

  // The F32 results, in float.
  static void to_f32(const float* sum, float* out, std::size_t n) {
    std::memcpy(out, sum, n * sizeof(float));
  }
  static void magnitude_f32(const float* a, const float* b, float* out, std::size_t n) {
    simd::magnitude_rows(a, b, out, n);
  }
  static void unsharp_f32(const float* src, const float* blur, float* out, std::size_t n, float amount) {
    simd::unsharp_rows(src, blur, out, n, amount);
  }
};

using SimdArithmetic = SimdArithmeticOf<std::int32_t>;
using SimdArithmetic16 = SimdArithmeticOf<std::int16_t>;

}  // namespace ks::cpu
