#pragma once
// The CUDA backends of k-means, declared without CUDA headers:
//   naive    one thread per pixel finds its nearest centroid (read from global memory) and adds its count, r,
//   g,
//            b and r^2+g^2+b^2 to the cluster's 64-bit sums in global memory with atomics: five atomics per
//            pixel on k * 5 addresses, which the L2 serialises;
//   blocked  each block sums a stretch of pixels per cluster in shared memory (lanes of a warp that chose the
//            same cluster first combine their values with warp reductions, so one lane adds for all of them),
//            writes its k * 5 partial sums, and a second kernel adds the partials of all blocks per cluster.
// Both sum integers, so their sums equal the CPU's exactly. In a build without CUDA the factory throws a
// Device error that suggests the CPU variant.
#include <memory>
#include <span>

#include "core/cuda_context.hpp"
#include "lab/kmeans/kmeans.hpp"

namespace ks::lab::cuda {

enum class KmeansVariant { Naive, Blocked };

// Threads per block when none is asked for.
inline constexpr int kDefaultKmeansBlock = 256;

// Checks the block against the device and the variant (blocked: a multiple of 32, whole warps reduce
// together) and the device memory, then uploads the pixels. A bad block is a usage Error naming the limit.
std::unique_ptr<KmeansBackend> make_cuda_kmeans(CudaContext& ctx, std::span<const std::uint32_t> pixels,
                                                KmeansVariant variant,
                                                int block_threads = kDefaultKmeansBlock);

}  // namespace ks::lab::cuda
