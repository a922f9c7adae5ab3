#pragma once
// The assignment kernels of the CUDA k-means variants (kmeans_kernels.cu); kmeans_cuda.cu drives them.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace ks::lab::cuda {

// Whole rounds of the block's threads per block stretch are at most this many pixels, so that a block's sums
// fit 32 bits: 16384 * (3 * 255^2) < 2^32.
inline constexpr std::size_t kMaxPixelsPerBlock = 16384;

struct AssignArgs {
  const std::uint32_t* pixels = nullptr;
  std::size_t n = 0;
  const float* centroids = nullptr;  // k * 3
  int k = 0;
  std::uint32_t* labels = nullptr;  // null: not wanted this pass
};

// The kernels themselves, for launch validation and the occupancy report.
const void* assign_naive_kernel();
const void* assign_blocked_kernel();

// sums: k * 5 u64, zeroed here.
void launch_assign_naive(const AssignArgs& a, unsigned long long* sums, int block, cudaStream_t s);
// partials: blocks * k * 5 u32; blocks * pixels_per_block >= n; pixels_per_block a multiple of block.
void launch_assign_blocked(const AssignArgs& a, unsigned* partials, int blocks, std::size_t pixels_per_block,
                           unsigned long long* sums, int block, cudaStream_t s);

}  // namespace ks::lab::cuda
