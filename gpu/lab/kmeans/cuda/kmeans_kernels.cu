#include "core/cuda/check.cuh"
#include "lab/kmeans/cuda/kmeans_kernels.cuh"
#include "lab/kmeans/kmeans_math.hpp"

namespace ks::lab::cuda {

namespace {

constexpr unsigned kFullWarp = 0xffffffffu;
constexpr int kReduceSide = 32;  // reduce_partials: 32 sums per block, 32 threads along the blocks for each

__global__ void assign_naive(AssignArgs a, unsigned long long* sums) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= a.n) return;
  const std::uint32_t p = a.pixels[i];
  const int j = nearest_centroid(p, a.centroids, a.k);
  if (a.labels) a.labels[i] = std::uint32_t(j);
  unsigned long long* s = sums + std::size_t(j) * kSumFields;
  atomicAdd(s + kCount, 1ull);
  for (int ch = 0; ch < kColourChannels; ++ch)
    atomicAdd(s + kSumR + ch, (unsigned long long)colour_channel(p, ch));
  atomicAdd(s + kSumSquares, (unsigned long long)squared_norm(p));
}

// Block b sums pixels [b * per_block, (b + 1) * per_block) per cluster in shared memory. Every thread runs
// the same number of rounds (per_block is a multiple of the block), so whole warps reach the warp reductions;
// lanes past the image take part with nothing to add.
__global__ void assign_blocked(AssignArgs a, std::size_t per_block, unsigned* partials) {
  __shared__ float centroids[kMaxClusters * kColourChannels];
  __shared__ unsigned acc[kMaxClusters * kSumFields];
  const int fields = a.k * kSumFields;
  for (int i = int(threadIdx.x); i < a.k * kColourChannels; i += int(blockDim.x))
    centroids[i] = a.centroids[i];
  for (int i = int(threadIdx.x); i < fields; i += int(blockDim.x)) acc[i] = 0;
  __syncthreads();

  const int lane = int(threadIdx.x % 32);
  const std::size_t begin = std::size_t(blockIdx.x) * per_block;
  for (std::size_t i = begin + threadIdx.x; i < begin + per_block; i += blockDim.x) {
    const bool valid = i < a.n;
    const std::uint32_t p = valid ? a.pixels[i] : 0u;
    const int j = valid ? nearest_centroid(p, centroids, a.k) : -1;
    if (valid && a.labels) a.labels[i] = std::uint32_t(j);
    // One cluster at a time, the lanes that chose it add their values in one warp reduction; the lowest of
    // them adds the totals to shared memory. Spatially coherent images have one or two clusters per warp.
    for (unsigned pending = __ballot_sync(kFullWarp, valid); pending;) {
      const int leader = __ffs(int(pending)) - 1;
      const int cluster = __shfl_sync(kFullWarp, j, leader);
      const bool mine = j == cluster;
      const unsigned group = __ballot_sync(kFullWarp, mine);
      unsigned v[kSumFields];
      v[kCount] = mine ? 1u : 0u;
      for (int ch = 0; ch < kColourChannels; ++ch)
        v[kSumR + ch] = mine ? unsigned(colour_channel(p, ch)) : 0u;
      v[kSumSquares] = mine ? squared_norm(p) : 0u;
#pragma unroll
      for (int f = 0; f < kSumFields; ++f) v[f] = __reduce_add_sync(kFullWarp, v[f]);
      if (lane == leader)
        for (int f = 0; f < kSumFields; ++f) atomicAdd(&acc[cluster * kSumFields + f], v[f]);
      pending &= ~group;
    }
  }
  __syncthreads();
  for (int i = int(threadIdx.x); i < fields; i += int(blockDim.x))
    partials[std::size_t(blockIdx.x) * std::size_t(fields) + std::size_t(i)] = acc[i];
}

// sums[f] = the sum over blocks of partials[b][f]: threadIdx.x picks f (coalesced reads along a block's row),
// threadIdx.y strides over the blocks, then the 32 partial sums of each f are added in shared memory.
__global__ void reduce_partials(const unsigned* partials, int blocks, int fields, unsigned long long* sums) {
  __shared__ unsigned long long part[kReduceSide][kReduceSide + 1];
  const int f = int(blockIdx.x) * kReduceSide + int(threadIdx.x);
  unsigned long long s = 0;
  if (f < fields)
    for (int b = int(threadIdx.y); b < blocks; b += kReduceSide)
      s += partials[std::size_t(b) * std::size_t(fields) + std::size_t(f)];
  part[threadIdx.y][threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.y == 0 && f < fields) {
    unsigned long long t = 0;
    for (int y = 0; y < kReduceSide; ++y) t += part[y][threadIdx.x];
    sums[f] = t;
  }
}

}  // namespace

const void* assign_naive_kernel() {
  return reinterpret_cast<const void*>(&assign_naive);
}
const void* assign_blocked_kernel() {
  return reinterpret_cast<const void*>(&assign_blocked);
}

void launch_assign_naive(const AssignArgs& a, unsigned long long* sums, int block, cudaStream_t s) {
  ks::cuda::check(cudaMemsetAsync(sums, 0, std::size_t(a.k) * kSumFields * sizeof(unsigned long long), s),
                  "cudaMemsetAsync (cluster sums)");
  const unsigned grid = unsigned((a.n + std::size_t(block) - 1) / std::size_t(block));
  assign_naive<<<grid, unsigned(block), 0, s>>>(a, sums);
  ks::cuda::check_launch("kmeans assign_naive");
}

void launch_assign_blocked(const AssignArgs& a, unsigned* partials, int blocks, std::size_t pixels_per_block,
                           unsigned long long* sums, int block, cudaStream_t s) {
  assign_blocked<<<unsigned(blocks), unsigned(block), 0, s>>>(a, pixels_per_block, partials);
  ks::cuda::check_launch("kmeans assign_blocked");
  const int fields = a.k * kSumFields;
  const dim3 reduce_block(kReduceSide, kReduceSide);
  reduce_partials<<<unsigned((fields + kReduceSide - 1) / kReduceSide), reduce_block, 0, s>>>(
      partials, blocks, fields, sums);
  ks::cuda::check_launch("kmeans reduce_partials");
}

}  // namespace ks::lab::cuda
