#pragma once
// The two implementations behind the "separable" variant (see make_separable_launch).
#include "stencil/cuda/stencil_launch.cuh"

namespace ks::cuda {

// Rows each thread walks in the 3x3 register kernels: about eight waves of resident blocks, at least 8 rows.
int rows_per_thread(const StencilJob& job, const void* kernel, unsigned blocks_x);

// Filters of at most 3x3: rows kept in registers, neighbours by warp shuffle (separable_3x3.cu).
int separable3_group(BlockShape block);  // 0 when the block shape does not suit that kernel
StencilLaunch make_separable3_launch(const StencilJob& job);

// u8 3x3 with non-negative weights and small sums (the box): two pixels per register (separable_3x3_packed.cu).
bool separable3_packed_applies(const StencilJob& job);
StencilLaunch make_separable3_packed_launch(const StencilJob& job);

// Any radius: row pass into a ring of shared-memory rows, column pass from there, down a strip (separable_strip.cu).
StencilLaunch make_separable_strip_launch(const StencilJob& job);

}  // namespace ks::cuda
