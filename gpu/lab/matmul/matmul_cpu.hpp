#pragma once
// The CPU reference of matmul: blocked for the caches and threaded over blocks of rows of C. Each element of
// C is the f32 dot product in ascending k (no FMA contraction on the host), so the result does not depend on
// the thread count.
#include <functional>
#include <string>

#include "core/thread_pool.hpp"
#include "lab/matmul/matmul_shape.hpp"

namespace ks::lab {

// c = a * b, row-major: a is m x k, b is k x n, c is m x n (c must not alias a or b). `progress` (optional)
// gets the fraction of rows done after each block of rows, from the worker threads; it may throw to stop the
// work (cancellation), and parallel_for passes the exception on.
void matmul_cpu(const float* a, const float* b, float* c, const MatmulShape& s, ThreadPool& pool,
                const std::function<void(double)>& progress = {});

// The CPU peer: OpenBLAS's cblas_sgemm (Debian's libopenblas-dev) on `threads` of its own threads, where the
// build found it; a usage Error saying how to get it otherwise.
bool openblas_available();
std::string openblas_unavailable_reason();  // empty when available
void matmul_openblas(const float* a, const float* b, float* c, const MatmulShape& s, int threads);

}  // namespace ks::lab
