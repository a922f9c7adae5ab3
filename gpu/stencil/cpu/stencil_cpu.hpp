#pragma once
// CPU implementation of every stencil plan, threaded across all cores. It is the backend used where there is
// no GPU (SIMD loops, CpuPath::Simd) and, as the scalar reference (CpuPath::Reference), the ground truth the
// CUDA variants and the SIMD loops are tested against.
#include "core/image.hpp"
#include "core/thread_pool.hpp"
#include "stencil/cpu/cpu_path.hpp"
#include "stencil/stencil_plan.hpp"

namespace ks::cpu {

// `in` is U8 or F32 with 1 or 4 channels; returns an image of the same shape.
Image run_stencil(const StencilPlan& plan, const Image& in, ThreadPool& pool, CpuPath path = CpuPath::Simd);
// The same into an existing image of the input's shape: repeated runs (timings) reuse one output, so they
// measure the filter, not the allocation and first-touch page faults of a fresh 64 MB image.
void run_stencil_into(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool,
                      CpuPath path = CpuPath::Simd);

}  // namespace ks::cpu
