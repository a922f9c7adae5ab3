#include "lab/reduce/reduce_input.hpp"

#include <cmath>
#include <numbers>
#include <vector>

#include "core/error.hpp"
#include "lab/reduce/cpu_sum.hpp"
#include "topo/random.hpp"

namespace ks::lab {

const char* to_string(ReduceDistribution d) noexcept {
  switch (d) {
    case ReduceDistribution::Uniform: return "uniform";
    case ReduceDistribution::Integers: return "integers";
    case ReduceDistribution::Normal: return "normal";
  }
  return "?";
}

ReduceDistribution reduce_distribution_from_string(const std::string& s) {
  for (auto d : {ReduceDistribution::Uniform, ReduceDistribution::Integers, ReduceDistribution::Normal})
    if (s == to_string(d)) return d;
  throw_usage("unknown distribution '" + s + "'", "use uniform, integers or normal");
}

namespace {

// Fills x[begin, end) with one generator per piece (seeded by the piece's number, so that pieces can be filled
// in any order) and returns the integer numerators' sum (Uniform, Integers) or 0.
long long fill_piece(float* x, long long piece, long long begin, long long end, ReduceDistribution d,
                     std::uint64_t seed) {
  topo::SplitMix64 rng = topo::sample_stream(seed, std::uint64_t(piece));
  long long exact = 0;
  switch (d) {
    case ReduceDistribution::Uniform:
      for (long long i = begin; i < end; ++i) {
        const long long k = static_cast<long long>(rng.next() >> 40);  // 24 bits
        exact += k;
        x[i] = std::ldexp(float(k), -24);
      }
      break;
    case ReduceDistribution::Integers:
      for (long long i = begin; i < end; ++i) {
        const long long k = static_cast<long long>(rng.below(2001)) - 1000;
        exact += k;
        x[i] = float(k);
      }
      break;
    case ReduceDistribution::Normal:
      for (long long i = begin; i < end; i += 2) {
        // Box-Muller: two independent normals from two uniforms; 1 - u keeps the logarithm's argument in (0, 1].
        const double r = std::sqrt(-2.0 * std::log(1.0 - rng.uniform()));
        const double angle = 2.0 * std::numbers::pi * rng.uniform();
        x[i] = float(r * std::cos(angle));
        if (i + 1 < end) x[i + 1] = float(r * std::sin(angle));
      }
      break;
  }
  return exact;
}

}  // namespace

std::optional<double> fill_reduce_input(float* x, long long n, ReduceDistribution d, std::uint64_t seed,
                                        ThreadPool& pool) {
  std::vector<long long> exact(std::size_t((n + kCpuSumPiece - 1) / kCpuSumPiece), 0);
  for_each_piece(n, pool, [&](long long p, long long begin, long long end) {
    exact[std::size_t(p)] = fill_piece(x, p, begin, end, d, seed);
  });
  if (d == ReduceDistribution::Normal) return std::nullopt;
  long long total = 0;  // |total| <= 2^30 * 2^24: no overflow
  for (long long e : exact) total += e;
  return d == ReduceDistribution::Uniform ? std::ldexp(double(total), -24) : double(total);
}

}  // namespace ks::lab
