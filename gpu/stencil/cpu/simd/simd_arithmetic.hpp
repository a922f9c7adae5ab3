#pragma once
// The SIMD path's arithmetic for the linear stencils (CpuPath::Simd), the counterpart of
// reference_arithmetic.hpp: U8 sums exact in int32 (the same integers), F32 sums in float.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "stencil/cpu/round_divider.hpp"
#include "stencil/cpu/simd/finish_rows.hpp"
#include "stencil/cpu/simd/finish_u8_rows.hpp"
#include "stencil/cpu/simd/weighted_rows.hpp"

namespace ks::cpu {

struct SimdArithmetic {
  template <class Pix>
  using Acc = std::conditional_t<std::is_same_v<Pix, std::uint8_t>, std::int32_t, float>;
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
  static void divide_u8(const RoundDivider& divider, const std::int32_t* sum, std::uint8_t* out,
                        std::size_t n) {
    simd::round_divide_rows(divider, sum, out, n);
  }
  struct MagnitudeU8 {
    void apply(const std::int32_t* a, const std::int32_t* b, std::uint8_t* out, std::size_t n) const {
      simd::magnitude_u8_rows(a, b, out, n);
    }
  };
  static void unsharp_u8(const std::uint8_t* src, const std::int32_t* blur_sum, std::uint8_t* out,
                         std::size_t n, std::int32_t divisor, float amount) {
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

}  // namespace ks::cpu
