#pragma once
// The last step of the F32 gradient magnitude and unsharp mask in SIMD (Google Highway), in float like the
// sums before it (the reference computes both in double: reference_arithmetic.hpp).
#include <cstddef>

namespace ks::cpu::simd {

// out[i] = sqrt(a[i]^2 + b[i]^2)
void magnitude_rows(const float* a, const float* b, float* out, std::size_t n);
// out[i] = src[i] + amount * (src[i] - blur[i])
void unsharp_rows(const float* src, const float* blur, float* out, std::size_t n, float amount);

}  // namespace ks::cpu::simd
