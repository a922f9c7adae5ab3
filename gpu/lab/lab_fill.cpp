#include "lab/lab_fill.hpp"

#include "core/thread_pool.hpp"

namespace ks::lab {

std::uint64_t mix64(std::uint64_t x) noexcept {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t random_bits(std::uint64_t seed, std::uint64_t stream, std::uint64_t i) noexcept {
  return mix64(mix64(seed * 0x100000001b3ULL + stream) ^ i);
}

void fill_uniform(std::span<float> out, std::uint64_t seed, std::uint64_t stream, float lo, float hi,
                  ThreadPool& pool) {
  const double scale = double(hi) - double(lo);
  pool.parallel_for(0, (long long)out.size(), [&](long long b, long long e) {
    for (long long i = b; i < e; ++i) {
      const double u = double(random_bits(seed, stream, std::uint64_t(i)) >> 40) * 0x1p-24;
      out[std::size_t(i)] = float(double(lo) + u * scale);
    }
  });
}

void fill_uniform(std::span<double> out, std::uint64_t seed, std::uint64_t stream, double lo, double hi,
                  ThreadPool& pool) {
  pool.parallel_for(0, (long long)out.size(), [&](long long b, long long e) {
    for (long long i = b; i < e; ++i) {
      const double u = double(random_bits(seed, stream, std::uint64_t(i)) >> 11) * 0x1p-53;
      out[std::size_t(i)] = lo + u * (hi - lo);
    }
  });
}

void fill_uniform(std::span<std::uint32_t> out, std::uint64_t seed, std::uint64_t stream, ThreadPool& pool) {
  pool.parallel_for(0, (long long)out.size(), [&](long long b, long long e) {
    for (long long i = b; i < e; ++i) out[std::size_t(i)] = std::uint32_t(random_bits(seed, stream, std::uint64_t(i)) >> 32);
  });
}

}  // namespace ks::lab
