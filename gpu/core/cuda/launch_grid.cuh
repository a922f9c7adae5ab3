#pragma once
// Grid arithmetic every family's launch makers share: a BlockShape as a dim3, blocks to cover a size, and the
// grid's y/z limit checked with a message that says what to do.
#include <cuda_runtime.h>

#include <string>

#include "core/error.hpp"
#include "core/launch_shape.hpp"

namespace ks::cuda {

inline dim3 block_dim(const BlockShape& b) { return dim3(unsigned(b.x), unsigned(b.y)); }

inline unsigned ceil_div(long long a, long long b) { return unsigned((a + b - 1) / b); }

// The grid's y and z extents are limited to 65535 blocks: a very tall image with a flat block exceeds it.
inline void check_grid(const dim3& grid) {
  if (grid.y > 65535 || grid.z > 65535)
    throw_usage("the image is too tall for this block shape (" + std::to_string(grid.y) +
                    " rows of blocks; CUDA allows 65535)",
                "use a taller block, e.g. 32x8 or 16x16");
}

}  // namespace ks::cuda
