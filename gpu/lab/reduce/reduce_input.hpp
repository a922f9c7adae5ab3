#pragma once
// The arrays `reduce` sums, generated from a seed (element i depends only on the seed and i: lab_fill.hpp),
// and their exact sum where one can be computed in integers, independently of any float summation.
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "core/thread_pool.hpp"

namespace ks::lab {

enum class ReduceDistribution {
  Uniform,   // k / 2^24 for a random 24-bit k: [0, 1), every value a multiple of 2^-24 (exact sum known)
  Integers,  // random integers in [-1000, 1000] (exact sum known)
  Normal,    // standard normal (Box-Muller) rounded to f32: full mantissas, mixed signs and magnitudes; the
             // compensated sum is the reference
};

const char* to_string(ReduceDistribution d) noexcept;  // "uniform" | "integers" | "normal"
ReduceDistribution reduce_distribution_from_string(const std::string& s);  // usage Error for anything else

void fill_reduce_input(std::span<float> x, ReduceDistribution d, std::uint64_t seed, ThreadPool& pool);

// The exact sum of x (rounded once, to double) when every value is a multiple of 2^-24 of magnitude below
// 2^38 (integers and `uniform` values are): the values scaled by 2^24 are integers, summed in 128 bits.
// Otherwise (e.g. `normal` values, or a user's array) nullopt.
std::optional<double> exact_dyadic_sum(const float* x, long long n, ThreadPool& pool);

}  // namespace ks::lab
