#pragma once
// Exact median selection as a comparator network, run on many windows at once: lanes[t][l] is tap t of window
// l, and each comparator (i, j) puts min(lanes[i], lanes[j]) into lanes[i] and the max into lanes[j] across
// all lanes with plain min/max, which vectorizes (u8 pminub/pmaxub, float minps/maxps) where a per-window
// std::nth_element cannot. For NaN-free data the result is exactly the middle value of each window (a zero
// may come out with either sign); with NaNs in a window its result is unspecified.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ks::cpu {

// The comparators of Batcher's odd-even merge sort of n inputs (n odd), keeping only those whose outcome can
// reach position n / 2, in the order they must run. constexpr, so that the SIMD median can unroll it
// (kMedianNetwork below).
constexpr std::vector<std::pair<int, int>> median_network(int n) {
  // Batcher's odd-even merge sort for any n (Knuth, TAOCP 5.3.4, Algorithm M, as usually written
  // iteratively).
  std::vector<std::pair<int, int>> sort;
  for (int p = 1; p < n; p <<= 1)
    for (int k = p; k >= 1; k >>= 1)
      for (int j = k % p; j + k < n; j += 2 * k)
        for (int i = 0; i < std::min(k, n - j - k); ++i)
          if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) sort.emplace_back(i + j, i + j + k);

  // Backwards from the middle output: a comparator matters if it writes a position that still matters, and
  // then both its inputs matter.
  std::vector<char> needed(std::size_t(n), 0);
  needed[std::size_t(n / 2)] = 1;
  std::vector<std::pair<int, int>> kept;
  for (auto it = sort.rbegin(); it != sort.rend(); ++it) {
    auto& [a, b] = *it;
    if (needed[std::size_t(a)] || needed[std::size_t(b)]) {
      kept.push_back(*it);
      needed[std::size_t(a)] = needed[std::size_t(b)] = 1;
    }
  }
  std::reverse(kept.begin(), kept.end());
  return kept;
}

// median_network(kTaps) as a constant array.
template <int kTaps>
inline constexpr auto kMedianNetwork = [] {
  std::array<std::pair<int, int>, median_network(kTaps).size()> network{};
  const auto comparators = median_network(kTaps);
  std::copy(comparators.begin(), comparators.end(), network.begin());
  return network;
}();

// lo[l], hi[l] = min, max of (lo[l], hi[l]) for l in [0, n).
void compare_exchange(std::uint8_t* __restrict lo, std::uint8_t* __restrict hi, std::size_t n);
void compare_exchange(float* __restrict lo, float* __restrict hi, std::size_t n);

}  // namespace ks::cpu
