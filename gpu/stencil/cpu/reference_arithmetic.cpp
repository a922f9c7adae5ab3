#include "stencil/cpu/reference_arithmetic.hpp"

#include <cmath>

namespace ks::cpu {

void ReferenceArithmetic::to_f32(const double* __restrict sum, float* __restrict out, std::size_t n) {
  for_lanes(n, [&](std::size_t i) { out[i] = float(sum[i]); });
}

void ReferenceArithmetic::magnitude_f32(const double* __restrict a, const double* __restrict b,
                                        float* __restrict out, std::size_t n) {
  // Scalar: sqrt's errno path keeps g++ from vectorizing (no -fno-math-errno here).
  for (std::size_t i = 0; i < n; ++i) out[i] = float(std::sqrt(a[i] * a[i] + b[i] * b[i]));
}

void ReferenceArithmetic::unsharp_f32(const float* __restrict src, const double* __restrict blur,
                                      float* __restrict out, std::size_t n, float amount) {
  const double a = amount;
  for_lanes(n, [&](std::size_t i) {
    const double v = src[i];
    out[i] = float(v + a * (v - blur[i]));
  });
}

}  // namespace ks::cpu
