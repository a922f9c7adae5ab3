#include "lab/matmul/matmul_cpu.hpp"

#include <algorithm>
#include <atomic>

namespace ks::lab {

namespace {

// A block of 16 rows of C walks B in panels of 128 rows x 512 columns (256 KB): the panel stays in L2 while
// the 16 rows reuse it, and one row of C's panel (2 KB) stays in L1 across the 128 k steps.
constexpr long long kRows = 16, kDepth = 128, kCols = 512;

void rows_of_c(const float* a, const float* b, float* c, const MatmulShape& s, long long i0, long long i1) {
  std::fill(c + i0 * s.n, c + i1 * s.n, 0.0f);
  for (long long kk = 0; kk < s.k; kk += kDepth) {
    const long long k1 = std::min(s.k, kk + kDepth);
    for (long long jj = 0; jj < s.n; jj += kCols) {
      const long long j1 = std::min(s.n, jj + kCols);
      for (long long i = i0; i < i1; ++i) {
        float* crow = c + i * s.n;
        for (long long k = kk; k < k1; ++k) {
          const float aik = a[i * s.k + k];
          const float* brow = b + k * s.n;
          for (long long j = jj; j < j1; ++j) crow[j] += aik * brow[j];  // vectorised over j
        }
      }
    }
  }
}

}  // namespace

void matmul_cpu(const float* a, const float* b, float* c, const MatmulShape& s, ThreadPool& pool,
                const std::function<void(double)>& progress) {
  const long long blocks = (s.m + kRows - 1) / kRows;
  std::atomic<long long> done{0};
  pool.parallel_for(0, blocks, [&](long long first, long long last) {
    for (long long blk = first; blk < last; ++blk) {
      rows_of_c(a, b, c, s, blk * kRows, std::min(s.m, (blk + 1) * kRows));
      const long long finished = ++done;
      if (progress) progress(double(finished) / double(blocks));
    }
  });
}

}  // namespace ks::lab
