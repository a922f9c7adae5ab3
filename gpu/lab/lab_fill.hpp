#pragma once
// Deterministic inputs for lab kernels: element i of a fill depends only on (seed, stream, i), never on the
// thread count or on how the work was cut, so the CPU reference, every CUDA variant and a later run with the
// same --seed see the same bytes. `stream` separates the arrays of one run (a and b of vecadd differ).
#include <cstdint>
#include <span>

namespace ks {
class ThreadPool;
}

namespace ks::lab {

// SplitMix64's finaliser: a well-mixed 64-bit value of (seed, stream, i).
std::uint64_t mix64(std::uint64_t x) noexcept;
std::uint64_t random_bits(std::uint64_t seed, std::uint64_t stream, std::uint64_t i) noexcept;

// Uniform in lo..hi: 24 random bits for floats, 53 for doubles.
void fill_uniform(std::span<float> out, std::uint64_t seed, std::uint64_t stream, float lo, float hi, ThreadPool& pool);
void fill_uniform(std::span<double> out, std::uint64_t seed, std::uint64_t stream, double lo, double hi,
                  ThreadPool& pool);
// Every 32-bit value equally likely (sort keys).
void fill_uniform(std::span<std::uint32_t> out, std::uint64_t seed, std::uint64_t stream, ThreadPool& pool);

}  // namespace ks::lab
