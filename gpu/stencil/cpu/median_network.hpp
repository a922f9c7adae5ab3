#pragma once
// Exact median selection as a comparator network, run on many windows at once: lanes[t][l] is tap t of window
// l, and each comparator (i, j) puts min(lanes[i], lanes[j]) into lanes[i] and the max into lanes[j] across
// all lanes with plain min/max, which vectorizes (u8 pminub/pmaxub, float minps/maxps) where a per-window
// std::nth_element cannot. For NaN-free data the result is exactly the middle value of each window (a zero
// may come out with either sign); with NaNs in a window its result is unspecified.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ks::cpu {

// The comparators of Batcher's odd-even merge sort of n inputs (n odd), keeping only those whose outcome can
// reach position n / 2, in the order they must run.
std::vector<std::pair<int, int>> median_network(int n);

// lo[l], hi[l] = min, max of (lo[l], hi[l]) for l in [0, n).
void compare_exchange(std::uint8_t* __restrict lo, std::uint8_t* __restrict hi, std::size_t n);
void compare_exchange(float* __restrict lo, float* __restrict hi, std::size_t n);

}  // namespace ks::cpu
