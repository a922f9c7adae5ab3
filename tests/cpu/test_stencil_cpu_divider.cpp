// The CPU's vectorizable U8 rounding (stencil/cpu/round_divider.hpp) against the contract's scalar
// definition, saturate_u8(round_div(sum, divisor)), over every sum that matters for each divisor.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "stencil/cpu/round_divider.hpp"
#include "stencil/stencil_math.hpp"

namespace ks {
namespace {

::testing::AssertionResult divides_like_contract(std::int32_t d, const std::vector<std::int32_t>& sums) {
  std::vector<std::uint8_t> out(sums.size());
  cpu::RoundDivider(d).apply(sums.data(), out.data(), sums.size());
  for (std::size_t i = 0; i < sums.size(); ++i) {
    // Independent of stencil_math: nearest, halves up, saturated, in exact 64-bit integer arithmetic.
    const std::int64_t s = sums[i];
    std::int64_t num = 2 * s + d, den = 2 * std::int64_t(d);
    std::int64_t q = num / den - ((num % den != 0 && num < 0) ? 1 : 0);
    const int expected = int(q < 0 ? 0 : q > 255 ? 255 : q);
    if (out[i] != expected || out[i] != saturate_u8(round_div(sums[i], d)))
      return ::testing::AssertionFailure()
             << "divisor " << d << " sum " << sums[i] << ": got " << int(out[i]) << ", expected " << expected;
  }
  return ::testing::AssertionSuccess();
}

TEST(StencilCpuDivider, ExhaustiveForFloatModeDivisors) {
  // Box windows (9, 25, ..., 101^2), powers of two, the largest divisor of the float mode (16416) and odd
  // ones.
  for (std::int32_t d : {1, 2, 3, 4, 5, 7, 8, 9, 16, 25, 49, 121, 10201, 16383, 16384, 16416}) {
    std::vector<std::int32_t> sums;
    for (std::int64_t s = -2 * std::int64_t(d) - 3; s <= 258 * std::int64_t(d) + 3; ++s)
      sums.push_back(std::int32_t(s));
    for (std::int32_t s :
         {INT32_MIN, INT32_MIN + 1, -(1 << 30), (1 << 24) + 1, (1 << 30), INT32_MAX - 1, INT32_MAX})
      sums.push_back(s);
    EXPECT_TRUE(divides_like_contract(d, sums));
  }
}

// Divisors past the float mode (power-of-two shifts such as the gaussian's 2^22, and the scalar fallback):
// every rounding boundary k*d + d/2 +- 2 over the unsaturated range, plus random and extreme sums.
TEST(StencilCpuDivider, BoundariesForLargeDivisors) {
  std::mt19937 rng(3);
  for (std::int32_t d : {16417, 32768, 1 << 16, 1 << 22, 3 << 20, 8388607, 1 << 30, INT32_MAX}) {
    std::vector<std::int32_t> sums;
    for (std::int64_t k = -3; k <= 260; ++k)
      for (std::int64_t off : {-2, -1, 0, 1, 2}) {
        for (std::int64_t s : {k * d + off, k * d + d / 2 + off})
          if (s >= INT32_MIN && s <= INT32_MAX) sums.push_back(std::int32_t(s));
      }
    std::uniform_int_distribution<std::int32_t> any(INT32_MIN, INT32_MAX);
    for (int i = 0; i < 100000; ++i) sums.push_back(any(rng));
    for (std::int32_t s : {INT32_MIN, INT32_MAX, 0, -1, 1}) sums.push_back(s);
    EXPECT_TRUE(divides_like_contract(d, sums)) << "divisor " << d;
  }
}

}  // namespace
}  // namespace ks
