#pragma once
// The CUDA backends of k-means, declared without CUDA headers (streams are `void*` cudaStream_t):
//   naive    one thread per pixel finds its nearest centroid (read from global memory) and adds its count, r,
//   g,
//            b and r^2+g^2+b^2 to the cluster's 64-bit sums in global memory with atomics: five atomics per
//            pixel on k * 5 addresses, which the L2 serialises;
//   blocked  each block sums a stretch of pixels per cluster in shared memory (lanes of a warp that chose the
//            same cluster first combine their values with warp reductions, so one lane adds for all of them),
//            writes its k * 5 partial sums, and a second kernel adds the partials of all blocks per cluster.
// Both sum integers, so their sums equal the CPU's exactly. In a build without CUDA every function throws a
// Device error that suggests the CPU variant.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/cuda_context.hpp"
#include "core/occupancy.hpp"
#include "lab/kmeans/kmeans.hpp"

namespace ks::lab::cuda {

enum class KmeansVariant { Naive, Blocked };

inline constexpr int kDefaultKmeansBlock = 256;

// How the assignment kernel covers n pixels: blocks, and for `blocked` the pixels each block sums.
struct KmeansGrid {
  std::int64_t blocks = 0;
  std::size_t pixels_per_block = 0;
};
KmeansGrid kmeans_grid(KmeansVariant variant, std::size_t n, int block, const DeviceInfo& device);

// Validates the block for the variant's assignment kernel (a usage Error naming the limit it breaks; blocked
// takes whole warps only) and returns that kernel's occupancy.
OccupancyReport kmeans_occupancy(KmeansVariant variant, int block, const DeviceInfo& device);

// Device scratch of a run: centroids, the cluster sums and, for blocked, every block's partial sums.
std::size_t kmeans_workspace_bytes(KmeansVariant variant, std::size_t n, int k, int block,
                                   const DeviceInfo& device);

// Device arrays the caller owns: the pixels (kmeans_image.hpp's words) and one label per pixel.
struct DeviceKmeansArrays {
  const std::uint32_t* pixels = nullptr;
  std::uint32_t* labels = nullptr;
  std::size_t n = 0;
};

// A backend over those arrays; each assign() synchronises with the stream (the host needs the sums).
std::unique_ptr<KmeansBackend> make_cuda_kmeans(const DeviceKmeansArrays& arrays, void* workspace,
                                                std::size_t workspace_bytes, KmeansVariant variant, int block,
                                                const DeviceInfo& device, void* stream);

// Host pixels in, result and labels out, outside the lab's framework (tests): allocates (after checking the
// free memory), uploads, runs Lloyd's iterations from `start`, downloads the labels.
struct GpuKmeans {
  KmeansResult result;
  std::vector<std::uint32_t> labels;
};
GpuKmeans kmeans_on_gpu(CudaContext& ctx, std::span<const std::uint32_t> pixels, std::span<const float> start,
                        const KmeansParams& params, KmeansVariant variant, int block = kDefaultKmeansBlock);

}  // namespace ks::lab::cuda
