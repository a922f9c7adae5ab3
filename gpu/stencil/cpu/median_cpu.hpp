#pragma once
// The CPU median: exact selection of the middle value of each channel's (2r+1)^2 window, by min/max only:
// the reference runs a selection network across many windows at once (median_network.hpp), the SIMD path
// vectors of windows straight from the padded rows (simd/median_rows.hpp; radii 1 to 3, others take the
// reference).
#include "core/image.hpp"
#include "core/thread_pool.hpp"
#include "stencil/cpu/cpu_path.hpp"
#include "stencil/stencil_plan.hpp"

namespace ks::cpu {

void run_median(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool, CpuPath path);

}  // namespace ks::cpu
