#pragma once
// Threaded CPU sums of n values given by a function of the index: the `cpu` variant of reduce and integrate2d
// (in the chosen accumulation type) and the compensated reference every variant's rounding error is measured
// against. Values are cut into fixed pieces whose sums are combined in order, so a result does not depend on
// the number of threads.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <vector>

#include "core/thread_pool.hpp"

namespace ks::lab {

// Values per piece: large enough that the pool's queueing is negligible, small enough to balance 2 to 64
// cores.
inline constexpr long long kCpuSumPiece = 1 << 16;

// Neumaier's variant of Kahan summation (it also handles terms larger than the running sum). In double over
// f32 inputs its error is about 2^-52 of the sum plus n * 2^-106 of sum|x|: exact for every purpose here.
struct NeumaierSum {
  double sum = 0, compensation = 0;
  void add(double x) {
    const double t = sum + x;
    compensation += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  double value() const { return sum + compensation; }
};

// The compensated sum of the values and the sum of their magnitudes (for error bounds).
struct SumReference {
  double sum = 0;
  double sum_abs = 0;
};

// Called after each piece with the fraction of pieces done, from the worker threads; may throw to stop the
// work.
using PieceProgress = std::function<void(double)>;

// body(piece, begin, end) for every fixed piece of [0, n), on the pool.
template <class Body>
void for_each_piece(long long n, ThreadPool& pool, const Body& body, const PieceProgress& progress = {}) {
  const long long pieces = (n + kCpuSumPiece - 1) / kCpuSumPiece;
  std::atomic<long long> done{0};
  pool.parallel_for(0, pieces, [&](long long first, long long last) {
    for (long long p = first; p < last; ++p) {
      body(p, p * kCpuSumPiece, std::min(n, (p + 1) * kCpuSumPiece));
      if (progress) progress(double(++done) / double(pieces));
    }
  });
}

// Sum of value(i), i in [0, n), in Acc (float or double): each piece in index order, then the pieces in
// order.
template <class Acc, class Value>
Acc chunked_sum(long long n, ThreadPool& pool, const Value& value, const PieceProgress& progress = {}) {
  std::vector<Acc> partial(std::size_t((n + kCpuSumPiece - 1) / kCpuSumPiece), Acc(0));
  for_each_piece(
      n, pool,
      [&](long long p, long long begin, long long end) {
        Acc s = 0;
        for (long long i = begin; i < end; ++i) s += Acc(value(i));
        partial[std::size_t(p)] = s;
      },
      progress);
  Acc total = 0;
  for (Acc s : partial) total += s;
  return total;
}

// The compensated (Neumaier) sum of value(i) and the sum of |value(i)|, both in double.
template <class Value>
SumReference compensated_sum(long long n, ThreadPool& pool, const Value& value) {
  std::vector<NeumaierSum> partial(std::size_t((n + kCpuSumPiece - 1) / kCpuSumPiece));
  std::vector<double> partial_abs(partial.size(), 0.0);
  for_each_piece(n, pool, [&](long long p, long long begin, long long end) {
    NeumaierSum s;
    double a = 0;
    for (long long i = begin; i < end; ++i) {
      const double x = double(value(i));
      s.add(x);
      a += std::fabs(x);
    }
    partial[std::size_t(p)] = s;
    partial_abs[std::size_t(p)] = a;
  });
  NeumaierSum total;
  SumReference r;
  for (std::size_t p = 0; p < partial.size(); ++p) {
    total.add(partial[p].sum);
    total.add(partial[p].compensation);
    r.sum_abs += partial_abs[p];
  }
  r.sum = total.value();
  return r;
}

}  // namespace ks::lab
