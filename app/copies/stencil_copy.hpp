#pragma once
// The copies of the stencil kernels' CUDA variants (kernel_copy.hpp): naive, tiled and separable for the window
// filters (linear, gradient magnitude, unsharp mask: the plans of stencil/stencil_plan.hpp), naive for the median.
#include <string>

#include "copies/kernel_copy.hpp"

namespace ks::copies {

EditCopy stencil_copy(const KernelSpec& kernel, const std::string& variant, const ParamSet& params, ElemType type);

}  // namespace ks::copies
