#pragma once
// The "recursive" variant of the gaussian (recursive_gaussian.cu): a row kernel then a column kernel. The job's
// block is the column kernel's (its thread count, one thread per element column); the row kernel's blocks are
// its own (warps of 32 rows).
#include "stencil/cuda/stencil_launch.cuh"

namespace ks::cuda {

StencilLaunch make_recursive_launch(const StencilJob& job);

}  // namespace ks::cuda
