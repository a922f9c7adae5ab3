#pragma once
// The copies of the lab's CUDA variants (kernel_copy.hpp): vecadd's and saxpy's naive, gridstride and vector4
// kernels as `array` kernels. The other lab variants say why they have none.
#include <optional>
#include <string>

#include "copies/kernel_copy.hpp"

namespace ks::copies {

// The copy of `variant` of the lab kernel `kernel`, or nothing where no copy is written (the caller says why).
std::optional<KernelCopy> lab_copy(const KernelSpec& kernel, const std::string& variant, const ParamSet& params);

}  // namespace ks::copies
