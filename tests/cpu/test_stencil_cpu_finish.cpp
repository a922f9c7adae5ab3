// The CPU's vectorizable U8 finishing steps (stencil/cpu/finish_u8.hpp) give exactly the bytes of the shared
// scalar definitions in stencil_math.hpp, over every input the stencils can produce.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "stencil/cpu/finish_u8.hpp"
#include "stencil/stencil_math.hpp"

namespace ks {
namespace {

// Sobel sums on U8 lie in [-1020, 1020]; a little beyond, and the extremes a plan could allow.
TEST(StencilCpuFinish, MagnitudeTableEqualsMagnitudeU8) {
  const cpu::MagnitudeU8 magnitude;
  std::vector<std::int32_t> a, b;
  for (std::int32_t x = -1100; x <= 1100; ++x)
    for (std::int32_t y = -1100; y <= 1100; ++y) {
      a.push_back(x);
      b.push_back(y);
    }
  for (std::int32_t x : {32767, -32767, 46340}) {
    a.push_back(x);
    b.push_back(0);
  }
  std::vector<std::uint8_t> out(a.size());
  magnitude.apply(a.data(), b.data(), out.data(), a.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (out[i] != magnitude_u8(a[i], b[i]) && bad++ < 5)
      ADD_FAILURE() << "a=" << a[i] << " b=" << b[i] << ": " << int(out[i]) << " vs "
                    << int(magnitude_u8(a[i], b[i]));
  EXPECT_EQ(bad, 0u);
}

// Every source byte against every blur sum of a 3x3 box and a gaussian-sized divisor, for several amounts
// (including ones that push far past 0 and 255).
TEST(StencilCpuFinish, UnsharpRowEqualsUnsharpU8) {
  std::mt19937 rng(9);
  for (std::int32_t divisor : {9, 25, 1 << 22}) {
    for (float amount : {0.f, 0.5f, 1.f, 1.37f, 10.f, 1e30f}) {
      std::vector<std::uint8_t> src;
      std::vector<std::int32_t> sums;
      if (divisor == 9) {
        for (int s = 0; s < 256; ++s)
          for (std::int32_t b = 0; b <= 255 * 9; ++b) {
            src.push_back(std::uint8_t(s));
            sums.push_back(b);
          }
      } else {
        std::uniform_int_distribution<std::int32_t> any_sum(0, 255 * divisor), any_src(0, 255);
        for (int i = 0; i < 200000; ++i) {
          src.push_back(std::uint8_t(any_src(rng)));
          sums.push_back(any_sum(rng));
        }
      }
      std::vector<std::uint8_t> out(src.size());
      cpu::unsharp_u8_row(src.data(), sums.data(), out.data(), src.size(), divisor, amount);
      std::size_t bad = 0;
      for (std::size_t i = 0; i < src.size(); ++i) {
        const std::uint8_t expected = unsharp_u8(src[i], sums[i], divisor, amount);
        if (out[i] != expected && bad++ < 5)
          ADD_FAILURE() << "divisor " << divisor << " amount " << amount << " src " << int(src[i]) << " sum "
                        << sums[i] << ": " << int(out[i]) << " vs " << int(expected);
      }
      EXPECT_EQ(bad, 0u);
    }
  }
}

}  // namespace
}  // namespace ks
