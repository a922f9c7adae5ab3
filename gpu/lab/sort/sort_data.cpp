#include "lab/sort/sort_data.hpp"

#include <fmt/format.h>

#include <array>

#include "core/error.hpp"

namespace ks::lab {

namespace {

// splitmix64: a full-period 64-bit mix of the counter, good enough for test and benchmark data and cheap to
// compute for any index (no sequential state, unlike a Mersenne twister).
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::uint32_t hash32(std::uint64_t seed, std::uint64_t i) {
  return std::uint32_t(mix(mix(seed) ^ i) >> 32);
}

// Non-decreasing keys spread over the whole u32 range: element i falls in its own slice of width 2^32 / n
// (at least 16 for n <= 2^28), at a seeded offset inside it, so the keys are sorted and mostly distinct.
std::uint32_t sorted_key(std::uint64_t seed, std::size_t i, std::size_t n) {
  const std::uint64_t width = (std::uint64_t(1) << 32) / n;
  return std::uint32_t(std::uint64_t(i) * width + hash32(seed, i) % width);
}

}  // namespace

const char* to_string(KeyDistribution d) noexcept {
  switch (d) {
    case KeyDistribution::Uniform:
      return "uniform";
    case KeyDistribution::FewDistinct:
      return "few";
    case KeyDistribution::Sorted:
      return "sorted";
    case KeyDistribution::Reversed:
      return "reversed";
  }
  return "?";
}

KeyDistribution key_distribution_from_string(const std::string& s) {
  for (KeyDistribution d : {KeyDistribution::Uniform, KeyDistribution::FewDistinct, KeyDistribution::Sorted,
                            KeyDistribution::Reversed})
    if (s == to_string(d)) return d;
  throw_usage(fmt::format("unknown key distribution '{}'", s), "use uniform, few, sorted or reversed");
}

void check_sort_size(std::size_t n) {
  if (n == 0 || n > kMaxSortElements)
    throw_usage(fmt::format("sort size {} is out of range", n),
                fmt::format("sort takes 1 to 2^28 = {} keys", kMaxSortElements));
}

std::vector<std::uint32_t> make_keys(std::size_t n, KeyDistribution d, std::uint64_t seed) {
  check_sort_size(n);
  std::vector<std::uint32_t> keys(n);
  std::array<std::uint32_t, 16> few{};
  for (std::size_t j = 0; j < few.size(); ++j) few[j] = hash32(seed ^ 0x5eedf00dull, j);
  for (std::size_t i = 0; i < n; ++i) {
    switch (d) {
      case KeyDistribution::Uniform:
        keys[i] = hash32(seed, i);
        break;
      case KeyDistribution::FewDistinct:
        keys[i] = few[hash32(seed, i) % few.size()];
        break;
      case KeyDistribution::Sorted:
        keys[i] = sorted_key(seed, i, n);
        break;
      case KeyDistribution::Reversed:
        keys[i] = sorted_key(seed, n - 1 - i, n);
        break;
    }
  }
  return keys;
}

std::vector<std::uint32_t> make_positions(std::size_t n) {
  std::vector<std::uint32_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = std::uint32_t(i);
  return v;
}

}  // namespace ks::lab
