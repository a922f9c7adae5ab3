#pragma once
// Which instruction set the CPU stencils' SIMD loops run. Highway compiles them for several (AVX-512 "AVX3",
// AVX2, SSE4, SSSE3 and the portable EMU128, which uses no SIMD intrinsics) and picks the best this CPU has
// at the first call. Tests can make it pick another (ForcedSimdTarget).
#include <cstdint>
#include <string>
#include <vector>

namespace ks::cpu::simd {

struct SimdTarget {
  std::int64_t bits = 0;  // Highway's HWY_* target bit
  std::string name;       // Highway's name: "AVX3", "AVX2", "SSE4", "SSSE3", "EMU128", ...
};

// The instruction set the SIMD loops run now.
SimdTarget current_simd_target();

// For reports: "AVX3 (AVX-512), Highway 1.0.3".
std::string simd_description();

// Every instruction set compiled in that this CPU can run, best first; the last one is the portable fallback.
std::vector<SimdTarget> runnable_simd_targets();

// For tests: while one is alive, the SIMD loops run `target` (Highway's SetSupportedTargetsForTest),
// afterwards the best one again. Highway keeps its choice per process, so this affects every thread: hold at
// most one.
class ForcedSimdTarget {
 public:
  explicit ForcedSimdTarget(const SimdTarget& target);
  ~ForcedSimdTarget();
  ForcedSimdTarget(const ForcedSimdTarget&) = delete;
  ForcedSimdTarget& operator=(const ForcedSimdTarget&) = delete;
};

}  // namespace ks::cpu::simd
