#pragma once
// What the CPU stencils check before they run: the image (a usage error: the caller can fix it) and the plan
// (an internal error: make_stencil_plan broke the contract of stencil_plan.hpp, e.g. a U8 sum that could
// overflow int32 or separable factors that do not multiply out to the 2-D window).
#include "core/image.hpp"
#include "stencil/stencil_plan.hpp"

namespace ks::cpu {

void check_stencil_input(const Image& in);
void check_stencil_plan(const StencilPlan& plan, ElemType type);

}  // namespace ks::cpu
