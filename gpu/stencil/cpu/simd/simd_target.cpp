// The target name comes from a function compiled per target and dispatched like the stencils' loops, so it
// reports the very choice they get (the same HWY_TARGETS, the same dispatch).
// clang-format off: foreach_target.h must follow HWY_TARGET_INCLUDE and come before highway.h.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "stencil/cpu/simd/simd_target.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// clang-format on
#include <cstdint>
#include <string>
#include <vector>

#include "hwy/highway.h"
#include "stencil/cpu/simd/simd_target.hpp"

HWY_BEFORE_NAMESPACE();
namespace ks::cpu::simd::HWY_NAMESPACE {

std::int64_t ThisTarget() {
  return HWY_TARGET;
}

}  // namespace ks::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ks::cpu::simd {

namespace {

SimdTarget target_of(std::int64_t bits) {
  return SimdTarget{bits, hwy::TargetName(bits)};
}

// What Highway's names mean, for people who know the instruction sets by Intel's names.
const char* plain_name(std::int64_t bits) {
  switch (bits) {
#if HWY_ARCH_X86
    case HWY_AVX3_DL:
      return "AVX-512 with VNNI, VBMI2, BITALG";
    case HWY_AVX3:
      return "AVX-512";
#endif
    case HWY_EMU128:
    case HWY_SCALAR:
      return "no SIMD intrinsics: the portable fallback";
    default:
      return nullptr;
  }
}

}  // namespace

HWY_EXPORT(ThisTarget);

SimdTarget current_simd_target() {
  return target_of(HWY_DYNAMIC_DISPATCH(ThisTarget)());
}

std::string simd_description() {
  const SimdTarget t = current_simd_target();
  const char* plain = plain_name(t.bits);
  return t.name + (plain ? std::string(" (") + plain + ")" : std::string()) + ", Highway " +
         std::to_string(HWY_MAJOR) + "." + std::to_string(HWY_MINOR) + "." + std::to_string(HWY_PATCH);
}

std::vector<SimdTarget> runnable_simd_targets() {
  std::vector<SimdTarget> targets;
  for (std::int64_t bits : hwy::SupportedAndGeneratedTargets()) targets.push_back(target_of(bits));
  return targets;
}

ForcedSimdTarget::ForcedSimdTarget(const SimdTarget& target) {
  hwy::SetSupportedTargetsForTest(target.bits);
}

ForcedSimdTarget::~ForcedSimdTarget() {
  hwy::SetSupportedTargetsForTest(0);
}

}  // namespace ks::cpu::simd
#endif  // HWY_ONCE
