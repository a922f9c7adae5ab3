#pragma once
// The CPU side of `reduce`: the threaded `cpu` variant in the chosen accumulation type, and the compensated
// sum that every variant's rounding error is measured against.
#include "core/thread_pool.hpp"
#include "lab/reduce/cpu_sum.hpp"
#include "lab/reduce/sum_variant.hpp"

namespace ks::lab {

// Sum of x[0, n) accumulated in f32 or f64 (fixed pieces, so the result does not depend on the thread count).
double reduce_cpu(const float* x, long long n, Accumulate accumulate, ThreadPool& pool,
                  const PieceProgress& progress = {});

// Neumaier-compensated sum of x[0, n) in double, and sum |x|.
SumReference reduce_reference(const float* x, long long n, ThreadPool& pool);

}  // namespace ks::lab
