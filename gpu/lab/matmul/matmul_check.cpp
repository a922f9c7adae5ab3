#include "lab/matmul/matmul_check.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <mutex>
#include <vector>

#include "core/thread_pool.hpp"

namespace ks::lab {

namespace {

double gamma(long long k) {
  const double ku = double(k) * 0x1p-24;
  return ku / (1 - ku);
}

// The worst element: the largest error relative to its bound (and the largest absolute error).
struct Worst {
  double abs = 0, ratio = 0;
  long long index = -1, beyond = 0;
};

}  // namespace

double matmul_fp32_factor(long long k) {
  return 2 * gamma(k);
}
double matmul_tf32_factor(long long k) {
  return 0x1p-9 * 1.01 + 2 * gamma(k);
}

LabCheck compare_matmul(const float* a, const float* b, const float* expected, const float* actual,
                        const MatmulShape& s, double factor, ThreadPool& pool) {
  std::vector<double> row_norm(std::size_t(s.m)), col_norm(std::size_t(s.n), 0.0);
  pool.parallel_for(0, s.m, [&](long long i0, long long i1) {
    for (long long i = i0; i < i1; ++i) {
      double q = 0;
      for (long long p = 0; p < s.k; ++p) q += double(a[i * s.k + p]) * a[i * s.k + p];
      row_norm[std::size_t(i)] = std::sqrt(q);
    }
  });
  pool.parallel_for(0, s.n, [&](long long j0, long long j1) {
    for (long long p = 0; p < s.k; ++p)
      for (long long j = j0; j < j1; ++j) col_norm[std::size_t(j)] += double(b[p * s.n + j]) * b[p * s.n + j];
    for (long long j = j0; j < j1; ++j) col_norm[std::size_t(j)] = std::sqrt(col_norm[std::size_t(j)]);
  });

  std::mutex mutex;
  Worst worst;
  pool.parallel_for(0, s.m, [&](long long i0, long long i1) {
    Worst w;
    for (long long i = i0; i < i1; ++i)
      for (long long j = 0; j < s.n; ++j) {
        const long long idx = i * s.n + j;
        const double err = std::fabs(double(actual[idx]) - double(expected[idx]));
        const double bound = factor * row_norm[std::size_t(i)] * col_norm[std::size_t(j)];
        const bool ok = err <= bound;  // false for NaN
        const double ratio = ok ? (bound > 0 ? err / bound : 0) : std::numeric_limits<double>::infinity();
        if (!ok) ++w.beyond;
        if (!std::isnan(err)) w.abs = std::max(w.abs, err);
        if (ratio > w.ratio || (w.index < 0 && !ok)) {
          w.ratio = ratio;
          w.index = idx;
        }
      }
    std::lock_guard lock(mutex);
    worst.abs = std::max(worst.abs, w.abs);
    worst.beyond += w.beyond;
    if (w.index >= 0 && (worst.index < 0 || w.ratio > worst.ratio)) {
      worst.ratio = w.ratio;
      worst.index = w.index;
    }
  });

  LabCheck c;
  c.checked = true;
  c.agrees = worst.beyond == 0;
  c.max_abs_error = worst.abs;
  c.max_rel_error = worst.ratio;  // relative to each element's bound
  c.bound = factor;
  const std::string rule = factor == 0 ? "exact (integer inputs)"
                                       : fmt::format("|error| <= {:.3g} * |a_i| |b_j| (K = {})", factor, s.k);
  if (worst.index < 0) {
    c.detail = fmt::format("C: {} elements identical to the CPU reference's; bound {}", s.m * s.n, rule);
  } else {
    const long long i = worst.index / s.n, j = worst.index % s.n;
    c.detail = fmt::format("C: max |error| {:.3g}; worst C[{}][{}] = {} vs {} at {:.3g} of its bound; {}{}",
                           worst.abs, i, j, actual[worst.index], expected[worst.index], worst.ratio, rule,
                           c.agrees ? "" : fmt::format("; {} of {} beyond", worst.beyond, s.m * s.n));
  }
  return c;
}

}  // namespace ks::lab
