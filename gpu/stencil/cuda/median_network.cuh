#pragma once
// The median's "tiled" variant: selection networks over a shared tile (median_network.cu).
#include "stencil/cuda/stencil_launch.cuh"

namespace ks::cuda {

StencilLaunch make_median_network_launch(const StencilJob& job);

}  // namespace ks::cuda
