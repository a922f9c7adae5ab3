#pragma once
// The sum of the costs of one block of a walk (at most kMaxBlockCosts of them), kept in the cheapest form that
// is still exact and folded into the policy's Sum once per block: what the CUDA sweep's statistics do per
// visited placement instead of a 128-bit addition (RunningStats::add_in_block, sweep_core.hpp).
//   ExactFloat   |cost| < 2^21: cost + 1.5 * 2^23 is exact and its bits are 0x4B400000 + cost, so a 32-bit
//                integer adds the bits (a float addition and an integer addition, no conversion); k costs sum
//                to less than k * 2^21 <= 2^31 in magnitude, so the 32-bit total less k * 0x4B400000 is exact
//   otherwise    straight into the sum (RealDouble: in the order of the walk, the CPU's order)
#include <cstdint>
#include <cstring>

#include "core/hd.hpp"
#include "topo/arith.hpp"

namespace ks::topo {

inline constexpr std::uint32_t kMaxBlockCosts = 1024;

template <class A>
struct BlockSum {
  KS_HD void add(typename A::Sum& sum, typename A::Value cost) { A::accumulate(sum, cost); }
  KS_HD void fold(typename A::Sum&, std::uint32_t) {}
};

template <>
struct BlockSum<ExactFloat> {
  static constexpr float kOffset = 12582912.0f;  // 1.5 * 2^23
  static constexpr std::uint32_t kOffsetBits = 0x4B400000u;
  std::uint32_t bits = 0;

  KS_HD static std::uint32_t float_bits(float f) {
#if defined(__CUDA_ARCH__)
    return __float_as_uint(f);
#else
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
#endif
  }
  KS_HD void add(Sum128&, float cost) { bits += float_bits(cost + kOffset); }
  KS_HD void fold(Sum128& sum, std::uint32_t costs) {
    sum.add(std::int64_t(std::int32_t(bits - costs * kOffsetBits)));
    bits = 0;
  }
};

}  // namespace ks::topo
