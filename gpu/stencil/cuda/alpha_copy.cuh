#pragma once
// The device twin of the engine's host alpha copy (StencilRequest::keep_alpha): a result that stays on the GPU for
// the display gets the input's alpha back there, so it looks the same as the downloaded one.
#include <cuda_runtime.h>

#include <cstddef>

#include "core/image.hpp"

namespace ks::cuda {

// Copies channel 3 of every pixel of `src` into `dst` (both 4-channel images of `shape`, pitched), on `stream`.
void copy_alpha_on_device(const void* src, std::size_t src_pitch, void* dst, std::size_t dst_pitch,
                          const ImageShape& shape, cudaStream_t stream);

}  // namespace ks::cuda
