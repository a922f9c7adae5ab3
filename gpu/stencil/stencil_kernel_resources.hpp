#pragma once
// What a stencil kernel asks of an SM, known without a GPU (cudaFuncGetAttributes needs one): the register
// counts ptxas reported for the sm_90 build (CUDA 13.0, -Xptxas -v; scripts/kernel_registers prints them
// again from a build), and the shared tile the launch geometry gives. A device model's occupancy uses these;
// on a real GPU the runtime's own figures are used instead.
#include <optional>
#include <string>

#include "core/image.hpp"
#include "core/kernel_resources.hpp"
#include "core/launch_geometry.hpp"
#include "stencil/stencil_plan.hpp"

namespace ks {

// None for variants the geometry does not model (separable) or a kernel the table lacks.
std::optional<KernelResources> stencil_kernel_resources(const StencilPlan& plan, const std::string& variant,
                                                        ElemType type, int channels,
                                                        const LaunchGeometry& geometry);

// Where the register counts come from, for labels: "registers from ptxas (sm_90 build, CUDA 13.0)".
const char* kernel_resources_source();

}  // namespace ks
