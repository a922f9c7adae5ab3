#pragma once
// The "recursive" variant of the gaussian (recursive_gaussian.cu): seven launches over square tiles
// (summaries, warm-ups, carries, the final pass; stencil/recursive_tiles.hpp). The job's block is the carry
// walks' (its thread count, a thread per line and direction); the tile kernels' blocks are their tiles' (a
// thread per element row, then element column, of a tile).
#include "stencil/cuda/stencil_launch.cuh"

namespace ks::cuda {

StencilLaunch make_recursive_launch(const StencilJob& job);

}  // namespace ks::cuda
