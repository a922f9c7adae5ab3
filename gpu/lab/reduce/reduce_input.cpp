#include "lab/reduce/reduce_input.hpp"

#include <atomic>
#include <cmath>
#include <numbers>
#include <vector>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "lab/lab_fill.hpp"
#include "lab/reduce/cpu_sum.hpp"

namespace ks::lab {

namespace {

__extension__ using Int128 = __int128;  // GCC's 128-bit integer (exact sums of up to 2^30 values below 2^62)

// Uniform in [0, 1) with 53 random bits.
double unit(std::uint64_t bits) {
  return double(bits >> 11) * 0x1p-53;
}

float element(ReduceDistribution d, std::uint64_t seed, std::uint64_t i) {
  switch (d) {
    case ReduceDistribution::Uniform:
      return std::ldexp(float(random_bits(seed, 1, i) >> 40), -24);
    case ReduceDistribution::Integers:
      return float(std::int64_t(random_bits(seed, 1, i) % 2001) - 1000);
    case ReduceDistribution::Normal: {
      // Box-Muller: 1 - u keeps the logarithm's argument in (0, 1].
      const double r = std::sqrt(-2.0 * std::log(1.0 - unit(random_bits(seed, 1, i))));
      return float(r * std::cos(2.0 * std::numbers::pi * unit(random_bits(seed, 2, i))));
    }
  }
  return 0;
}

constexpr EnumName<ReduceDistribution> kDistributionNames[] = {{ReduceDistribution::Uniform, "uniform"},
                                                               {ReduceDistribution::Integers, "integers"},
                                                               {ReduceDistribution::Normal, "normal"}};

}  // namespace

const char* to_string(ReduceDistribution d) noexcept {
  return name_of(kDistributionNames, d);
}

ReduceDistribution reduce_distribution_from_string(const std::string& s) {
  return value_named(kDistributionNames, s, "distribution");
}

void fill_reduce_input(std::span<float> x, ReduceDistribution d, std::uint64_t seed, ThreadPool& pool) {
  pool.parallel_for(0, (long long)x.size(), [&](long long b, long long e) {
    for (long long i = b; i < e; ++i) x[std::size_t(i)] = element(d, seed, std::uint64_t(i));
  });
}

std::optional<double> exact_dyadic_sum(const float* x, long long n, ThreadPool& pool) {
  std::vector<Int128> partial(std::size_t((n + kCpuSumPiece - 1) / kCpuSumPiece), 0);
  std::atomic<bool> dyadic{true};
  for_each_piece(n, pool, [&](long long p, long long begin, long long end) {
    Int128 s = 0;
    for (long long i = begin; i < end; ++i) {
      const double scaled = std::ldexp(double(x[i]), 24);  // exact: a float times a power of two
      if (!(std::fabs(scaled) < 0x1p62) || scaled != std::trunc(scaled)) {
        dyadic = false;
        return;
      }
      s += Int128(std::int64_t(scaled));
    }
    partial[std::size_t(p)] = s;
  });
  if (!dyadic) return std::nullopt;
  Int128 total = 0;
  for (Int128 s : partial) total += s;
  return std::ldexp(double(total), -24);
}

}  // namespace ks::lab
