#pragma once
// The scalar reference's arithmetic for the linear stencils (CpuPath::Reference): U8 sums exact in int32,
// F32 sums in double, through the plain loops of row_ops.hpp. simd/simd_arithmetic.hpp is the SIMD path's
// counterpart; linear_cpu.cpp runs either.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "stencil/cpu/finish_u8.hpp"
#include "stencil/cpu/round_divider.hpp"
#include "stencil/cpu/row_ops.hpp"

namespace ks::cpu {

struct ReferenceArithmetic {
  template <class Pix>
  using Acc = std::conditional_t<std::is_same_v<Pix, std::uint8_t>, std::int32_t, double>;
  // Output rows summed per column sweep (linear_rows.hpp): one, as the reference always did.
  static constexpr int kRowsPerSweep = 1;

  // out[i] = sum over taps t of w[t] * rows[t][i]
  template <class Acc, class Src>
  static void weighted_sum(Acc* out, std::size_t n, const Src* const* rows, const Acc* w, int taps) {
    cpu::weighted_sum(out, n, rows, w, taps);
  }

  // The U8 results from the exact sums (stencil_plan.hpp's contract).
  static void divide_u8(const RoundDivider& divider, const std::int32_t* sum, std::uint8_t* out,
                        std::size_t n) {
    divider.apply(sum, out, n);
  }
  using MagnitudeU8 = cpu::MagnitudeU8;  // a table of magnitude_u8's values, built per run
  static void unsharp_u8(const std::uint8_t* src, const std::int32_t* blur_sum, std::uint8_t* out,
                         std::size_t n, std::int32_t divisor, float amount) {
    unsharp_u8_row(src, blur_sum, out, n, divisor, amount);
  }

  // The F32 results from the sums: the sum itself, the gradient magnitude sqrt(a^2 + b^2), the unsharp mask
  // src + amount * (src - blur); each rounded to float once, at the end.
  static void to_f32(const double* sum, float* out, std::size_t n);
  static void magnitude_f32(const double* a, const double* b, float* out, std::size_t n);
  static void unsharp_f32(const float* src, const double* blur, float* out, std::size_t n, float amount);
};

}  // namespace ks::cpu
