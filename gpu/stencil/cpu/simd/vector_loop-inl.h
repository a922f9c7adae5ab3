// The loop every SIMD row function here shares, per Highway target: whole vectors, then the row's last
// elements one lane at a time through the same operations (so that they round, and select, as the others do).
// Included once per target by files that include hwy/foreach_target.h; the guard below follows Highway's
// convention for such headers (it flips with HWY_TARGET_TOGGLE, so each target's pass sees the contents).
#if defined(KS_STENCIL_CPU_SIMD_VECTOR_LOOP_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef KS_STENCIL_CPU_SIMD_VECTOR_LOOP_INL_H_
#undef KS_STENCIL_CPU_SIMD_VECTOR_LOOP_INL_H_
#else
#define KS_STENCIL_CPU_SIMD_VECTOR_LOOP_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace ks::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// f(d, i) for i = 0, N, 2N, ... while a whole vector of T fits in [0, n), then f(d1, i) for each element
// left, with d1 a one-lane descriptor.
template <class T, class F>
HWY_INLINE void for_vectors(std::size_t n, F&& f) {
  const hn::ScalableTag<T> d;
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + N <= n; i += N) f(d, i);
  const hn::CappedTag<T, 1> d1;
  for (; i < n; ++i) f(d1, i);
}

}  // namespace ks::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // KS_STENCIL_CPU_SIMD_VECTOR_LOOP_INL_H_
