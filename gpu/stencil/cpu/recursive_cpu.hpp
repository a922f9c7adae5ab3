#pragma once
// The gaussian kernel's `cpu_recursive` variant: the recursive (IIR) Gaussian of stencil/recursive_gaussian.hpp on
// the CPU, threaded across the pool, its loops in SIMD (simd/recursive_lines.hpp). Its cost per pixel does not
// depend on sigma (only the border extension, about 7 sigma a line end, does).
#include "core/image.hpp"
#include "core/thread_pool.hpp"
#include "stencil/stencil_plan.hpp"

namespace ks::cpu {

// `plan` is a gaussian plan (gaussian_sigma >= kRecursiveMinSigma); `in` U8 or F32 with 1 or 4 channels, `out`
// of its shape. Every channel is filtered (as the other stencils do; the engine puts the alpha back if asked).
void run_recursive_gaussian(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool);

}  // namespace ks::cpu
