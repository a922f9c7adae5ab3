#include "stencil/cpu/median_network.hpp"

#include <algorithm>

#include "stencil/cpu/row_ops.hpp"

namespace ks::cpu {

std::vector<std::pair<int, int>> median_network(int n) {
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

// These are what pminub / minps compute, so g++ vectorizes them without -ffast-math (written with one shared
// condition instead, g++ keeps a branch; through std::min's references, -O2 keeps one for u8). For equal
// values both outputs take `a`: only the sign of a zero can change, never a value.
template <class T>
inline T min_of(T a, T b) {
  return b < a ? b : a;
}
template <class T>
inline T max_of(T a, T b) {
  return a < b ? b : a;
}

template <class T>
static void compare_exchange_impl(T* __restrict lo, T* __restrict hi, std::size_t n) {
  for_lanes(n, [&](std::size_t i) {
    const T a = lo[i], b = hi[i];
    lo[i] = min_of(a, b);
    hi[i] = max_of(a, b);
  });
}

void compare_exchange(std::uint8_t* __restrict lo, std::uint8_t* __restrict hi, std::size_t n) {
  compare_exchange_impl(lo, hi, n);
}

void compare_exchange(float* __restrict lo, float* __restrict hi, std::size_t n) {
  compare_exchange_impl(lo, hi, n);
}

}  // namespace ks::cpu
