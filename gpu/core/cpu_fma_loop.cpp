// Highway compiles this file once per instruction set (foreach_target.h re-includes it); cpu_fma_loop() at the
// end dispatches to the best one the CPU supports.
// clang-format off: foreach_target.h must follow HWY_TARGET_INCLUDE and come before highway.h.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/cpu_fma_loop.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// clang-format on
#include "core/cpu_fma_loop.hpp"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace ks::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// m and a keep x near 1 (x = 0.999 x + 0.001): no overflow, no denormals.
constexpr float kM = 0.999f, kA = 0.001f;

// Twelve chains: each multiply-add waits for its chain's previous one (about 4 cycles), so a core with two FMA
// units needs at least 8 in flight; 12 cover that with room, in the registers of every x86 target (16 on AVX2
// and SSE, 32 on AVX-512). Named variables rather than an array: Highway's scalable vectors (SVE) cannot be
// array elements.
float FmaLoop(long long iterations, float seed) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const V m = hn::Set(d, kM), a = hn::Set(d, kA);
  V x0 = hn::Set(d, seed), x1 = hn::Set(d, seed + 0.001f), x2 = hn::Set(d, seed + 0.002f),
    x3 = hn::Set(d, seed + 0.003f), x4 = hn::Set(d, seed + 0.004f), x5 = hn::Set(d, seed + 0.005f),
    x6 = hn::Set(d, seed + 0.006f), x7 = hn::Set(d, seed + 0.007f), x8 = hn::Set(d, seed + 0.008f),
    x9 = hn::Set(d, seed + 0.009f), x10 = hn::Set(d, seed + 0.010f), x11 = hn::Set(d, seed + 0.011f);
  for (long long it = 0; it < iterations; ++it) {
    x0 = hn::MulAdd(x0, m, a);
    x1 = hn::MulAdd(x1, m, a);
    x2 = hn::MulAdd(x2, m, a);
    x3 = hn::MulAdd(x3, m, a);
    x4 = hn::MulAdd(x4, m, a);
    x5 = hn::MulAdd(x5, m, a);
    x6 = hn::MulAdd(x6, m, a);
    x7 = hn::MulAdd(x7, m, a);
    x8 = hn::MulAdd(x8, m, a);
    x9 = hn::MulAdd(x9, m, a);
    x10 = hn::MulAdd(x10, m, a);
    x11 = hn::MulAdd(x11, m, a);
  }
  const V sum = hn::Add(hn::Add(hn::Add(hn::Add(x0, x1), hn::Add(x2, x3)), hn::Add(hn::Add(x4, x5), hn::Add(x6, x7))),
                        hn::Add(hn::Add(x8, x9), hn::Add(x10, x11)));
  return hn::GetLane(hn::SumOfLanes(d, sum));
}

long long FmasPerIteration() {
  return 12 * static_cast<long long>(hn::Lanes(hn::ScalableTag<float>()));
}

}  // namespace ks::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ks {

HWY_EXPORT(FmaLoop);
HWY_EXPORT(FmasPerIteration);

CpuFmaLoop cpu_fma_loop() {
  return {[](long long iterations, float seed) { return HWY_DYNAMIC_DISPATCH(FmaLoop)(iterations, seed); },
          HWY_DYNAMIC_DISPATCH(FmasPerIteration)()};
}

}  // namespace ks
#endif  // HWY_ONCE
