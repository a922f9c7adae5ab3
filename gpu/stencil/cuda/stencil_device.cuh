#pragma once
// Device-side pieces shared by every stencil kernel: image views, border reads, and the finishing step that turns
// window sums into an output value exactly as the CPU reference does (stencil_plan.hpp's arithmetic contract).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "stencil/border.hpp"
#include "stencil/stencil_math.hpp"

namespace ks::cuda {

// What a window sums in: exact int32 for u8 (the contract), float for f32.
template <class T>
struct AccumOf;
template <>
struct AccumOf<std::uint8_t> {
  using type = std::int32_t;
};
template <>
struct AccumOf<float> {
  using type = float;
};
template <class T>
using Acc = typename AccumOf<T>::type;

// A pitched device image seen as rows of T with C interleaved channels.
template <class T, int C>
struct ImageView {
  unsigned char* base;
  std::size_t pitch;  // bytes between row starts
  int width, height;  // in pixels

  __device__ __forceinline__ T* row(int y) const { return reinterpret_cast<T*>(base + std::size_t(y) * pitch); }
  __device__ __forceinline__ T at(int x, int y, int c) const { return row(y)[x * C + c]; }
  __device__ __forceinline__ int row_elements() const { return width * C; }
};

// floor(a / C) for a compile-time positive C and any sign of a.
template <int C>
__device__ __forceinline__ int floor_div(int a) {
  return a >= 0 ? a / C : -((-a + C - 1) / C);
}

// Border handling as the CPU does it: remap both axes; the constant border reads `value`.
struct BorderRead {
  Border mode;
  float value;  // in image units; for u8 already saturate_u8'ed by the host, as the CPU reference does

  template <class T, int C>
  __device__ __forceinline__ T read(const ImageView<T, C>& img, int x, int y, int c) const {
    const int xx = remap(x, img.width, mode);
    const int yy = remap(y, img.height, mode);
    if (xx < 0 || yy < 0) return T(value);
    return img.at(xx, yy, c);
  }
  // Element e (pixel floor(e/C), channel e mod C) of row yy, which is already remapped (-1: constant row).
  template <class T, int C>
  __device__ __forceinline__ T read_element(const ImageView<T, C>& img, const T* row, int yy, int e) const {
    if (yy < 0) return T(value);
    const int px = floor_div<C>(e);
    const int xx = remap(px, img.width, mode);
    return xx < 0 ? T(value) : row[xx * C + (e - px * C)];
  }
};

// saturate_u8(round_div(sum, d)) without a 64-bit division, which would cost more than a whole 3x3 box filter
// per pixel. Bit-exact with stencil_math.hpp (the argument of the CPU's RoundDivider, plus saturation):
// - round_div(c, d) = floor((c + h + 1/2) / d) with h = floor(d / 2) (for even d adding 1/2 to the integer c + h
//   cannot reach the next multiple of d);
// - float mode, when 255 d + h + 1 < 2^22: for sums in [-2^22, 2^22], t = c + h + 1/2 is exact in float and t / d
//   lies at least 1/(2d) from an integer, while fl(t * fl(1/d)) is within t/d * 2^-23 of it, so truncation gives
//   the floor on [0, 255]. Outside [0, 255 d] the true result saturates and the computed one does too (rounding
//   cannot carry a sum across the gap of at least one unit to the range's ends). The conversion saturates to
//   0..255 by itself (PTX: float-to-integer conversions clamp to the destination range);
// - shift mode, a power-of-two d too large for floats (the u8 gaussian's 2^22): clamp, then
//   floor(c / d) + (c mod d >= h);
// - anything else (large divisors that are not powers of two): the 64-bit definition.
struct U8Divider {
  enum Mode : int { Float, Shift, Exact };
  int mode = Exact;
  std::int32_t divisor = 1, half = 0, high = 255, shift = 0;
  float bias = 0.5f, inverse = 1.f;

  static U8Divider make(std::int32_t d) {
    U8Divider r;
    r.divisor = d;
    r.half = d / 2;
    const std::int64_t high = 255 * std::int64_t(d);
    if (high + r.half + 1 < (std::int64_t(1) << 22)) {
      r.mode = Float;
      r.high = std::int32_t(high);
      r.bias = float(r.half) + 0.5f;
      r.inverse = 1.f / float(d);
    } else if ((d & (d - 1)) == 0 && high <= INT32_MAX) {
      r.mode = Shift;
      r.high = std::int32_t(high);
      while ((std::int64_t(1) << r.shift) != d) ++r.shift;
    }
    return r;
  }

  __device__ __forceinline__ std::uint8_t operator()(std::int32_t sum) const {
    if (mode == Float) return float_mode(sum);
    if (mode == Exact) return saturate_u8(round_div(sum, divisor));
    const std::int32_t c = min(max(sum, 0), high);
    return std::uint8_t((c >> shift) + ((c & (divisor - 1)) >= half ? 1 : 0));
  }
  // Float mode alone, for loops that test the mode once.
  __device__ __forceinline__ std::uint8_t float_mode(std::int32_t sum) const {
    const float q = __fmul_rn(__fadd_rn(float(sum), bias), inverse);
    unsigned r;
    asm("cvt.rzi.u8.f32 %0, %1;" : "=r"(r) : "f"(q));  // truncates and saturates to 0..255
    return std::uint8_t(r);
  }
};

// What the plan kinds do with their window sums.
enum Finish : int { kLinear = 0, kGradient = 1, kUnsharp = 2 };

struct FinishParams {
  U8Divider div;  // u8 linear
  std::int32_t divisor;  // u8 unsharp: the blur's divisor
  float amount;   // unsharp
};

// One tap of a window row for the C channels v: ra += a v, and for the gradient rb += b v (its second filter).
template <int KIND, class A, int C>
__device__ __forceinline__ void add_tap(A (&ra)[C], A (&rb)[C], A a, A b, const A (&v)[C]) {
#pragma unroll
  for (int c = 0; c < C; ++c) {
    ra[c] += a * v[c];
    if constexpr (KIND == kGradient) rb[c] += b * v[c];
  }
}

// A window row's sums into the window's: rows are summed on their own, then added (f32 rounding then grows with
// the row length plus the row count, not with their product).
template <class A, int C>
__device__ __forceinline__ void add_row(A (&sa)[C], A (&sb)[C], const A (&ra)[C], const A (&rb)[C]) {
#pragma unroll
  for (int c = 0; c < C; ++c) {
    sa[c] += ra[c];
    sb[c] += rb[c];
  }
}

// Window sums (a, and b for the gradient) plus the source pixel -> the output value.
template <int KIND>
__device__ __forceinline__ std::uint8_t finish(std::int32_t a, std::int32_t b, std::uint8_t src,
                                               const FinishParams& p) {
  if constexpr (KIND == kLinear) return p.div(a);
  else if constexpr (KIND == kGradient) return magnitude_u8(a, b);
  else return unsharp_u8(src, a, p.divisor, p.amount);
}

template <int KIND>
__device__ __forceinline__ float finish(float a, float b, float src, const FinishParams& p) {
  if constexpr (KIND == kLinear) return a;
  else if constexpr (KIND == kGradient) return sqrtf(a * a + b * b);
  else return src + p.amount * (src - a);
}

}  // namespace ks::cuda
