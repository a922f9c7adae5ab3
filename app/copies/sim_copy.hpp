#pragma once
// The copies of the simulations' CUDA variants (kernel_copy.hpp): Life's and heat's naive variants as `step`
// kernels. The other simulation variants say why they have none.
#include <optional>
#include <string>

#include "copies/kernel_copy.hpp"

namespace ks::copies {

// The copy of `variant` of the simulation `kernel`, or nothing where no copy is written (the caller says why).
std::optional<KernelCopy> sim_copy(const KernelSpec& kernel, const std::string& variant, const ParamSet& params);

}  // namespace ks::copies
