#pragma once
// Facts about a sort's output derived without the code under test: non-decreasing keys, the same multiset of
// keys as the input (counted in a hash map), and for pairs that every output pair is an input pair, each used
// once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <unordered_map>
#include <vector>

namespace ks::test {

using Keys = std::vector<std::uint32_t>;

inline ::testing::AssertionResult is_sorted_permutation(const Keys& input, const Keys& output) {
  if (output.size() != input.size())
    return ::testing::AssertionFailure() << "output has " << output.size() << " keys, input " << input.size();
  for (std::size_t i = 1; i < output.size(); ++i)
    if (output[i - 1] > output[i])
      return ::testing::AssertionFailure()
             << "out of order at " << i << ": " << output[i - 1] << " > " << output[i];
  std::unordered_map<std::uint32_t, long long> count;
  for (std::uint32_t k : input) ++count[k];
  for (std::uint32_t k : output)
    if (--count[k] < 0)
      return ::testing::AssertionFailure() << "key " << k << " appears more often than in the input";
  return ::testing::AssertionSuccess();
}

// Every (key, value) of the output is an input pair and no input pair is used twice: when the values are the
// input positions, value v must come with key input[v] and the values are a permutation of 0..n-1.
inline ::testing::AssertionResult pairs_are_input_pairs(const Keys& input_keys, const Keys& out_keys,
                                                        const Keys& out_positions) {
  std::vector<char> used(input_keys.size(), 0);
  for (std::size_t i = 0; i < out_keys.size(); ++i) {
    const std::uint32_t v = out_positions[i];
    if (v >= input_keys.size() || used[v])
      return ::testing::AssertionFailure()
             << "value " << v << " at " << i << " is not an unused input position";
    used[v] = 1;
    if (out_keys[i] != input_keys[v])
      return ::testing::AssertionFailure() << "pair (" << out_keys[i] << ", " << v << ") at " << i << " was ("
                                           << input_keys[v] << ", " << v << ") in the input";
  }
  return ::testing::AssertionSuccess();
}

// The values a stable sort by key gives (std::stable_sort of the positions).
inline Keys stable_order(const Keys& keys, const Keys& values) {
  std::vector<std::size_t> idx(keys.size());
  std::iota(idx.begin(), idx.end(), std::size_t(0));
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  Keys out(keys.size());
  for (std::size_t i = 0; i < idx.size(); ++i) out[i] = values[idx[i]];
  return out;
}

// The values when equal keys are ordered by value (the CPU and bitonic order).
inline Keys by_key_then_value(const Keys& keys, const Keys& values) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> p(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) p[i] = {keys[i], values[i]};
  std::sort(p.begin(), p.end());
  Keys out(keys.size());
  for (std::size_t i = 0; i < p.size(); ++i) out[i] = p[i].second;
  return out;
}

}  // namespace ks::test
