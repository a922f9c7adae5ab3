#pragma once
// The "tiled" variant of non-separable linear filters: several outputs per thread (window_multi.cu).
#include "stencil/cuda/stencil_launch.cuh"
#include "stencil/tiled_design.hpp"

namespace ks::cuda {

StencilLaunch make_window_multi_launch(const StencilJob& job, const TiledDesign& design);

}  // namespace ks::cuda
