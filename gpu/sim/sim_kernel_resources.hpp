#pragma once
// What a simulation kernel asks of an SM, known without a GPU: registers per thread from ptxas on the sm_90
// build (CUDA 13.0, -Xptxas -v), and Life tiled's shared tile from the launch geometry. For device models.
#include <optional>
#include <string>

#include "core/launch_geometry.hpp"
#include "core/kernel_resources.hpp"

namespace ks {

// None for variants without a recorded count (bitpacked) or other kernels.
std::optional<KernelResources> sim_kernel_resources(const std::string& kernel_id, const std::string& variant,
                                                    const LaunchGeometry& geometry);

}  // namespace ks
