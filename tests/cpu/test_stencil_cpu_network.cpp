// The median selection network of the CPU stencils (stencil/cpu/median_network.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "stencil/cpu/median_network.hpp"

namespace ks {
namespace {

// Runs the network on `values` (one window, one lane) and returns what lands in the middle.
template <class T>
T network_median(const std::vector<std::pair<int, int>>& network, std::vector<T> values) {
  for (const auto& [lo, hi] : network)
    cpu::compare_exchange(&values[std::size_t(lo)], &values[std::size_t(hi)], 1);
  return values[values.size() / 2];
}

template <class T>
T sorted_median(std::vector<T> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// 0-1 principle: a comparator network selects the k-th smallest of every input iff it does for every input of
// zeros and ones. Exhaustive for the 3x3 window (and smaller).
TEST(StencilCpuNetwork, SelectsTheMedianOfEveryZeroOneInput) {
  for (int n : {1, 3, 5, 9, 15}) {
    const auto network = cpu::median_network(n);
    for (std::uint32_t bits = 0; bits < (1u << n); ++bits) {
      std::vector<std::uint8_t> v;
      for (int i = 0; i < n; ++i) v.push_back(std::uint8_t((bits >> i) & 1u));
      ASSERT_EQ(network_median(network, v), sorted_median(v)) << "n " << n << " bits " << bits;
    }
  }
}

// The 5x5 and 7x7 windows: random values with many ties, u8 and float.
TEST(StencilCpuNetwork, SelectsTheMedianOfRandomWindows) {
  std::mt19937 rng(42);
  for (int n : {25, 49}) {
    const auto network = cpu::median_network(n);
    EXPECT_LT(network.size(), std::size_t(n) * std::size_t(n) / 2) << "pruning left the full sort";
    for (int range : {2, 5, 256}) {
      std::uniform_int_distribution<int> d(0, range - 1);
      for (int trial = 0; trial < 5000; ++trial) {
        std::vector<std::uint8_t> v;
        std::vector<float> f;
        for (int i = 0; i < n; ++i) {
          v.push_back(std::uint8_t(d(rng)));
          f.push_back(float(d(rng)) * 0.37f - 20.f);
        }
        ASSERT_EQ(network_median(network, v), sorted_median(v)) << "n " << n;
        ASSERT_EQ(network_median(network, f), sorted_median(f)) << "n " << n;
      }
    }
  }
}

// Lanes are independent: one call over many windows equals one call per window.
TEST(StencilCpuNetwork, LanesAreIndependent) {
  const int n = 9, lanes = 37;  // not a multiple of the vector width
  const auto network = cpu::median_network(n);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<float> block(std::size_t(n) * lanes);
  for (float& x : block) x = d(rng);
  std::vector<float> expected;
  for (int l = 0; l < lanes; ++l) {
    std::vector<float> w;
    for (int t = 0; t < n; ++t) w.push_back(block[std::size_t(t) * lanes + l]);
    expected.push_back(sorted_median(w));
  }
  for (const auto& [lo, hi] : network)
    cpu::compare_exchange(&block[std::size_t(lo) * lanes], &block[std::size_t(hi) * lanes], lanes);
  for (int l = 0; l < lanes; ++l) EXPECT_EQ(block[std::size_t(n / 2) * lanes + l], expected[std::size_t(l)]);
}

}  // namespace
}  // namespace ks
