#pragma once
// The medians of one output row in SIMD (Google Highway), a vector of windows at a time, straight from the
// padded source rows (no copy of the taps): rows[j], j < 2r+1, is the window's row j, starting at x = -r, and
// tap (j, i) of element e is rows[j][e + i * channels]. Exact selection with min/max only, so U8 results are
// the reference's bytes and F32 results its values (NaN-free data; a zero may change sign).
//   3x3: each column of the window sorted (3 comparators), then the median of the largest low, the median
//        middle and the smallest high — 30 min/max per vector of windows instead of the 40 of the network
//   5x5, 7x7: the reference's comparator network (median_network.hpp), unrolled at compile time
#include <cstddef>
#include <cstdint>

namespace ks::cpu::simd {

// The radii the SIMD median covers (the registry's range); run_median takes the reference for others.
constexpr bool simd_median_radius(int radius) {
  return radius >= 1 && radius <= 3;
}

// out[e] = median of the window of element e, for e in [0, n); radius within simd_median_radius.
void median_row(const std::uint8_t* const* rows, int radius, std::size_t channels, std::uint8_t* out,
                std::size_t n);
void median_row(const float* const* rows, int radius, std::size_t channels, float* out, std::size_t n);

}  // namespace ks::cpu::simd
