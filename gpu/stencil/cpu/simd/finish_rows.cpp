// Highway compiles this file once per instruction set (foreach_target.h re-includes it); the functions at the
// end dispatch to the best one the CPU supports.
// clang-format off: foreach_target.h must follow HWY_TARGET_INCLUDE and come before highway.h.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "stencil/cpu/simd/finish_rows.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// clang-format on
#include <cstddef>

#include "hwy/highway.h"
#include "stencil/cpu/simd/finish_rows.hpp"
#include "stencil/cpu/simd/vector_loop-inl.h"

HWY_BEFORE_NAMESPACE();
namespace ks::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void MagnitudeRows(const float* a, const float* b, float* out, std::size_t n) {
  for_vectors<float>(n, [&](auto d, std::size_t i) {
    const auto va = hn::LoadU(d, a + i), vb = hn::LoadU(d, b + i);
    hn::StoreU(hn::Sqrt(hn::MulAdd(va, va, hn::Mul(vb, vb))), d, out + i);
  });
}

void UnsharpRows(const float* src, const float* blur, float* out, std::size_t n, float amount) {
  for_vectors<float>(n, [&](auto d, std::size_t i) {
    const auto v = hn::LoadU(d, src + i);
    hn::StoreU(hn::MulAdd(hn::Set(d, amount), hn::Sub(v, hn::LoadU(d, blur + i)), v), d, out + i);
  });
}

}  // namespace ks::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ks::cpu::simd {

HWY_EXPORT(MagnitudeRows);
HWY_EXPORT(UnsharpRows);

void magnitude_rows(const float* a, const float* b, float* out, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(MagnitudeRows)(a, b, out, n);
}
void unsharp_rows(const float* src, const float* blur, float* out, std::size_t n, float amount) {
  HWY_DYNAMIC_DISPATCH(UnsharpRows)(src, blur, out, n, amount);
}

}  // namespace ks::cpu::simd
#endif  // HWY_ONCE
