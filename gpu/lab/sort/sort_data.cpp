#include "lab/sort/sort_data.hpp"

#include <fmt/format.h>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "lab/lab_fill.hpp"

namespace ks::lab {

namespace {

// random_bits streams of the sort's fills (other kernels use 1, 2, ... for their arrays; any fixed numbers
// do).
constexpr std::uint64_t kKeyStream = 1, kFewValuesStream = 2;
constexpr std::uint32_t kFewDistinct = 16;

std::uint32_t hash32(std::uint64_t seed, std::uint64_t stream, std::uint64_t i) {
  return std::uint32_t(random_bits(seed, stream, i) >> 32);
}

// Non-decreasing keys spread over the whole u32 range: element i falls in its own slice of width 2^32 / n
// (at least 16 for n <= 2^28), at a seeded offset inside it, so the keys are sorted and mostly distinct.
std::uint32_t sorted_key(std::uint64_t seed, std::size_t i, std::size_t n) {
  const std::uint64_t width = (std::uint64_t(1) << 32) / n;
  return std::uint32_t(std::uint64_t(i) * width + hash32(seed, kKeyStream, i) % width);
}

std::uint32_t key_at(KeyDistribution d, std::uint64_t seed, std::size_t i, std::size_t n) {
  switch (d) {
    case KeyDistribution::Uniform:
      return hash32(seed, kKeyStream, i);
    case KeyDistribution::FewDistinct:
      return hash32(seed, kFewValuesStream, hash32(seed, kKeyStream, i) % kFewDistinct);
    case KeyDistribution::Sorted:
      return sorted_key(seed, i, n);
    case KeyDistribution::Reversed:
      return sorted_key(seed, n - 1 - i, n);
  }
  return 0;
}

constexpr EnumName<KeyDistribution> kDistributionNames[] = {{KeyDistribution::Uniform, "uniform"},
                                                            {KeyDistribution::FewDistinct, "few"},
                                                            {KeyDistribution::Sorted, "sorted"},
                                                            {KeyDistribution::Reversed, "reversed"}};

}  // namespace

const char* to_string(KeyDistribution d) noexcept {
  return name_of(kDistributionNames, d);
}

KeyDistribution key_distribution_from_string(const std::string& s) {
  return value_named(kDistributionNames, s, "key distribution");
}

void check_sort_size(std::size_t n) {
  if (n == 0 || n > kMaxSortElements)
    throw_usage(fmt::format("sort size {} is out of range", n),
                fmt::format("sort takes 1 to 2^28 = {} keys", kMaxSortElements));
}

void fill_keys(std::span<std::uint32_t> keys, KeyDistribution d, std::uint64_t seed, ThreadPool& pool) {
  check_sort_size(keys.size());
  pool.parallel_for(0, (long long)keys.size(), [&](long long b, long long e) {
    for (long long i = b; i < e; ++i) keys[std::size_t(i)] = key_at(d, seed, std::size_t(i), keys.size());
  });
}

std::vector<std::uint32_t> make_keys(std::size_t n, KeyDistribution d, std::uint64_t seed) {
  check_sort_size(n);
  std::vector<std::uint32_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = key_at(d, seed, i, n);
  return keys;
}

void fill_positions(std::span<std::uint32_t> values, ThreadPool& pool) {
  pool.parallel_for(0, (long long)values.size(), [&](long long b, long long e) {
    for (long long i = b; i < e; ++i) values[std::size_t(i)] = std::uint32_t(i);
  });
}

std::vector<std::uint32_t> make_positions(std::size_t n) {
  std::vector<std::uint32_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = std::uint32_t(i);
  return v;
}

}  // namespace ks::lab
