#include "lab/reduce/reduce_cpu.hpp"

namespace ks::lab {

double reduce_cpu(const float* x, long long n, Accumulate accumulate, ThreadPool& pool,
                  const PieceProgress& progress) {
  const auto value = [x](long long i) { return x[i]; };
  if (accumulate == Accumulate::F64) return chunked_sum<double>(n, pool, value, progress);
  return double(chunked_sum<float>(n, pool, value, progress));
}

SumReference reduce_reference(const float* x, long long n, ThreadPool& pool) {
  return compensated_sum(n, pool, [x](long long i) { return x[i]; });
}

}  // namespace ks::lab
