#pragma once
// The two implementations behind the "separable" variant (see make_separable_launch).
#include "stencil/cuda/stencil_launch.cuh"

namespace ks::cuda {

// Rows each thread walks in the 3x3 register kernels: 6 (u8) or 4 (f32), whatever the image. Short walks and
// many threads were the fastest (docs/PERF.md has the sweep of rows per thread).
// The kernels are bound by latency: a thread's rows are loaded one after another, so short walks put more of the
// image's loads in flight at once; below 4 rows the two halo rows each walk re-reads cost more than that gains.
int rows_per_thread(const StencilJob& job);

// Filters of at most 3x3: rows kept in registers, neighbours by warp shuffle (separable_3x3.cu).
int separable3_group(BlockShape block);  // 0 when the block shape does not suit that kernel (shuffle_group)
StencilLaunch make_separable3_launch(const StencilJob& job);

// u8 3x3 with non-negative weights and small sums (the box): two pixels per register (separable_3x3_packed.cu).
bool separable3_packed_applies(const StencilJob& job);
StencilLaunch make_separable3_packed_launch(const StencilJob& job);
// The same kernel for the tiled variant of the u8 one-channel 3x3 laplacians (tiled_design.hpp: Laplacian3x3).
StencilLaunch make_laplacian3_packed_launch(const StencilJob& job);

// Any radius: row pass into a ring of shared-memory rows, column pass from there, down a strip (separable_strip.cu).
StencilLaunch make_separable_strip_launch(const StencilJob& job);

}  // namespace ks::cuda
