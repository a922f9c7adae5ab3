#pragma once
// The CPU median: exact selection of the middle value of each channel's (2r+1)^2 window, by a selection
// network run across many windows at once (median_network.hpp).
#include "core/image.hpp"
#include "core/thread_pool.hpp"
#include "stencil/stencil_plan.hpp"

namespace ks::cpu {

void run_median(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool);

}  // namespace ks::cpu
