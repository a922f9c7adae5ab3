#pragma once
// The CPU side of integrate2d: the threaded `cpu` variant (sum of the f32 samples in the chosen accumulation
// type) and the compensated sum of the same samples, the reference for every variant's rounding error.
#include "core/thread_pool.hpp"
#include "lab/integrate2d/integrand.hpp"
#include "lab/reduce/cpu_sum.hpp"
#include "lab/reduce/sum_variant.hpp"

namespace ks::lab {

double integrate_sum_cpu(const MidpointGrid& g, Accumulate accumulate, ThreadPool& pool,
                         const PieceProgress& progress = {});
SumReference integrate_reference(const MidpointGrid& g, ThreadPool& pool);

// The midpoint rule's value from the sum of its samples: sum * hx * hy, with the spacing of the requested
// rectangle in double (the samples themselves sit at f32 coordinates).
double midpoint_integral(double sample_sum, const Rect& r, long long nx, long long ny);

}  // namespace ks::lab
