#pragma once
// The arrays `reduce` sums, generated from a seed: the same values for any thread count and on every machine.
// Two distributions have an exact sum computed in integers, independently of any float summation; the third is
// general (full mantissas, mixed signs and magnitudes), where the compensated CPU sum is the reference.
#include <cstdint>
#include <optional>
#include <string>

#include "core/thread_pool.hpp"

namespace ks::lab {

enum class ReduceDistribution {
  Uniform,   // k / 2^24 for a random 24-bit k: [0, 1), every value exact in f32; the exact sum is sum(k) / 2^24
  Integers,  // random integers in [-1000, 1000]; the exact sum is their int64 sum
  Normal,    // standard normal (Box-Muller), rounded to f32: no exact sum, the compensated sum is the reference
};

const char* to_string(ReduceDistribution d) noexcept;  // "uniform" | "integers" | "normal"
ReduceDistribution reduce_distribution_from_string(const std::string& s);  // usage Error for anything else

// Fills x[0, n) from the seed. Returns the exact sum (to double precision) for Uniform and Integers.
std::optional<double> fill_reduce_input(float* x, long long n, ReduceDistribution d, std::uint64_t seed,
                                        ThreadPool& pool);

}  // namespace ks::lab
