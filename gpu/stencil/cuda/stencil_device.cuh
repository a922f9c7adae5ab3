#pragma once
// Device-side pieces shared by every stencil kernel: image views, border reads, and the finishing step that
// turns window sums into an output value exactly as the CPU reference does (stencil_plan.hpp's contract).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "stencil/border.hpp"
#include "stencil/stencil_math.hpp"

namespace ks::cuda {

// What a window sums in: exact int32 for u8, float for f32.
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
  int width, height;

  __device__ __forceinline__ T* row(int y) const { return reinterpret_cast<T*>(base + std::size_t(y) * pitch); }
  __device__ __forceinline__ T at(int x, int y, int c) const { return row(y)[x * C + c]; }
};

// Border handling as the CPU does it: remap both axes, constant outside.
struct BorderRead {
  Border mode;
  float value;  // already saturated for u8 by the host (saturate_u8), in image units

  template <class T, int C>
  __device__ __forceinline__ T read(const ImageView<T, C>& img, int x, int y, int c) const {
    const int xx = remap(x, img.width, mode);
    const int yy = remap(y, img.height, mode);
    if (xx < 0 || yy < 0) return T(value);
    return img.at(xx, yy, c);
  }
};

enum Finish : int { kLinear = 0, kGradient = 1, kUnsharp = 2 };

struct FinishParams {
  std::int32_t divisor;
  float amount;
};

// Window sums (a, and b for the gradient) plus the source pixel -> output value.
template <int KIND>
__device__ __forceinline__ std::uint8_t finish(std::int32_t a, std::int32_t b, std::uint8_t src,
                                               const FinishParams& p) {
  if constexpr (KIND == kLinear) return saturate_u8(round_div(a, p.divisor));
  else if constexpr (KIND == kGradient) return magnitude_u8(a, b);
  else return unsharp_u8(src, a, p.divisor, p.amount);
}

template <int KIND>
__device__ __forceinline__ float finish(float a, float b, float src, const FinishParams& p) {
  if constexpr (KIND == kLinear) return a;
  else if constexpr (KIND == kGradient) return sqrtf(a * a + b * b);
  else return src + p.amount * (src - a);
}

// Odd-sized 1-D taps by value (kernel parameters live in the constant bank: no globals needed).
constexpr int kMaxTaps = 129;  // radius 64
template <class A>
struct Taps {
  int count;
  A w[kMaxTaps];
};

}  // namespace ks::cuda
