#pragma once
// The CPU stencils built on linear window sums: Linear, GradientMagnitude and UnsharpMask plans, on either
// path (cpu_path.hpp). Inputs are checked by run_stencil (stencil_cpu.hpp); these take U8 or F32 with 1 or 4
// channels.
#include "core/image.hpp"
#include "core/thread_pool.hpp"
#include "stencil/cpu/cpu_path.hpp"
#include "stencil/stencil_plan.hpp"

namespace ks::cpu {

void run_linear(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool, CpuPath path);
void run_gradient_magnitude(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool,
                            CpuPath path);
void run_unsharp_mask(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool, CpuPath path);

}  // namespace ks::cpu
