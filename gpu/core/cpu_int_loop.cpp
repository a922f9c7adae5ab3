// Highway compiles this file once per instruction set (foreach_target.h re-includes it); cpu_int_loop() at
// the end dispatches to the best one the CPU supports.
// clang-format off: foreach_target.h must follow HWY_TARGET_INCLUDE and come before highway.h.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/cpu_int_loop.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// clang-format on
#include <stdexcept>

#include "core/cpu_int_loop.hpp"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace ks::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// x = min(x + step, limit): an add then a min, each waiting on the one before (latency ~1 cycle each), twelve
// chains in flight (kCpuIntChains). Named variables, not an array: Highway's scalable vectors cannot be array
// elements.
template <class T>
std::uint64_t IntLoop(long long iterations, unsigned seed) {
  const hn::ScalableTag<T> d;
  using V = hn::Vec<decltype(d)>;
  const V step = hn::Set(d, T(1 + (seed & 3))), limit = hn::Set(d, T(100 + (seed & 7)));
  V x0 = hn::Set(d, T(seed)), x1 = hn::Set(d, T(seed + 1)), x2 = hn::Set(d, T(seed + 2)),
    x3 = hn::Set(d, T(seed + 3)), x4 = hn::Set(d, T(seed + 4)), x5 = hn::Set(d, T(seed + 5)),
    x6 = hn::Set(d, T(seed + 6)), x7 = hn::Set(d, T(seed + 7)), x8 = hn::Set(d, T(seed + 8)),
    x9 = hn::Set(d, T(seed + 9)), x10 = hn::Set(d, T(seed + 10)), x11 = hn::Set(d, T(seed + 11));
  for (long long it = 0; it < iterations; ++it) {
    x0 = hn::Min(hn::Add(x0, step), limit);
    x1 = hn::Min(hn::Add(x1, step), limit);
    x2 = hn::Min(hn::Add(x2, step), limit);
    x3 = hn::Min(hn::Add(x3, step), limit);
    x4 = hn::Min(hn::Add(x4, step), limit);
    x5 = hn::Min(hn::Add(x5, step), limit);
    x6 = hn::Min(hn::Add(x6, step), limit);
    x7 = hn::Min(hn::Add(x7, step), limit);
    x8 = hn::Min(hn::Add(x8, step), limit);
    x9 = hn::Min(hn::Add(x9, step), limit);
    x10 = hn::Min(hn::Add(x10, step), limit);
    x11 = hn::Min(hn::Add(x11, step), limit);
  }
  const V all =
      hn::Xor(hn::Xor(hn::Xor(hn::Xor(x0, x1), hn::Xor(x2, x3)), hn::Xor(hn::Xor(x4, x5), hn::Xor(x6, x7))),
              hn::Xor(hn::Xor(x8, x9), hn::Xor(x10, x11)));
  HWY_ALIGN T lanes[hn::MaxLanes(d)];
  hn::Store(all, d, lanes);
  std::uint64_t digest = 0;
  for (std::size_t i = 0; i < hn::Lanes(d); ++i) digest = digest * 31 + std::uint64_t(lanes[i]);
  return digest;
}

std::uint64_t U8Loop(long long iterations, unsigned seed) {
  return IntLoop<std::uint8_t>(iterations, seed);
}
std::uint64_t I16Loop(long long iterations, unsigned seed) {
  return IntLoop<std::int16_t>(iterations, seed);
}
std::uint64_t I32Loop(long long iterations, unsigned seed) {
  return IntLoop<std::int32_t>(iterations, seed);
}

long long LanesU8() {
  return static_cast<long long>(hn::Lanes(hn::ScalableTag<std::uint8_t>()));
}

}  // namespace ks::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ks {

HWY_EXPORT(U8Loop);
HWY_EXPORT(I16Loop);
HWY_EXPORT(I32Loop);
HWY_EXPORT(LanesU8);

CpuIntLoop cpu_int_loop(OpKind kind) {
  const long long u8_lanes = HWY_DYNAMIC_DISPATCH(LanesU8)();
  const long long per_lane = 2 * kCpuIntChains;  // an add and a min per chain per round
  switch (kind) {
    case OpKind::U8:
      return {[](long long n, unsigned seed) { return HWY_DYNAMIC_DISPATCH(U8Loop)(n, seed); },
              per_lane * u8_lanes};
    case OpKind::I16:
      return {[](long long n, unsigned seed) { return HWY_DYNAMIC_DISPATCH(I16Loop)(n, seed); },
              per_lane * u8_lanes / 2};
    case OpKind::I32:
      return {[](long long n, unsigned seed) { return HWY_DYNAMIC_DISPATCH(I32Loop)(n, seed); },
              per_lane * u8_lanes / 4};
    default:
      throw std::logic_error("cpu_int_loop: not an integer kind");
  }
}

}  // namespace ks
#endif  // HWY_ONCE
