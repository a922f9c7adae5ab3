#pragma once
// The inputs of the lab's `sort` kernel: how many u32 keys (optionally with u32 values), drawn from which
// distribution, from which seed. Every backend sorts the same host arrays; key i depends only on the seed and
// i (lab_fill.hpp's random_bits), so a run is reproducible from its parameters whatever the thread count.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace ks {
class ThreadPool;
}

namespace ks::lab {

// 2^28 keys: 1 GiB of keys, 2 GiB with values, before the output and the scratch of a GPU sort.
inline constexpr std::size_t kMaxSortElements = std::size_t(1) << 28;

enum class KeyDistribution {
  Uniform,      // every u32 equally likely
  FewDistinct,  // 16 distinct values drawn from the seed: long runs of equal keys (ties, stability)
  Sorted,       // non-decreasing already
  Reversed,     // non-increasing
};

const char* to_string(KeyDistribution d) noexcept;
// "uniform", "few", "sorted", "reversed"; a usage Error listing them otherwise.
KeyDistribution key_distribution_from_string(const std::string& s);

// Throws a usage Error when n is 0 or above kMaxSortElements (saying the range; nothing is clamped).
void check_sort_size(std::size_t n);

// keys.size() keys of the distribution, threaded over the pool.
void fill_keys(std::span<std::uint32_t> keys, KeyDistribution d, std::uint64_t seed, ThreadPool& pool);
// The same keys in a new vector, on the calling thread.
std::vector<std::uint32_t> make_keys(std::size_t n, KeyDistribution d, std::uint64_t seed);
// The values of a key-value run: each key's position in the input (0, 1, 2, ...), so that where a pair went
// shows which input element it was (stability is readable from the output).
void fill_positions(std::span<std::uint32_t> values, ThreadPool& pool);
std::vector<std::uint32_t> make_positions(std::size_t n);

}  // namespace ks::lab
