#pragma once
// The kernels behind the lab's sums, generic over where the values come from (`Src`: an index -> value
// functor, e.g. an array or an integrand at a midpoint) and the accumulation type (`Acc`: float or double).
// Included by reduce_cuda.cu and integrate_cuda.cu, which instantiate them for their sources.
#include <cuda_runtime.h>

#include "lab/reduce/device_sum.hpp"

namespace ks::lab::kernels {

using u64 = unsigned long long;

// ---- block-level building blocks
// -----------------------------------------------------------------------------

// Sum over the 32 lanes of a warp by shuffles (register to register, no shared memory); lane 0 holds the
// total.
template <class Acc>
__device__ __forceinline__ Acc warp_total(Acc v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// Sum over the block (blockDim.x a multiple of 32): each warp by shuffles, the warps' totals through 32
// shared slots, then the first warp by shuffles again. Thread 0 holds the total.
template <class Acc>
__device__ __forceinline__ Acc block_total(Acc v) {
  __shared__ Acc warp_sums[32];
  v = warp_total(v);
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) v = warp_total(lane < (blockDim.x >> 5) ? warp_sums[lane] : Acc(0));
  return v;
}

// ---- the variants
// ----------------------------------------------------------------------------------------------

// `atomic`: every thread adds each of its values to the one global result. All threads of the GPU queue on
// one address: the lesson in contention.
template <class Acc, class Src>
__global__ void atomic_sum_kernel(Src src, u64 n, Acc* result) {
  const u64 stride = u64(gridDim.x) * blockDim.x;
  for (u64 i = blockIdx.x * u64(blockDim.x) + threadIdx.x; i < n; i += stride) atomicAdd(result, Acc(src(i)));
}

// `shared`: each thread adds its values (grid-stride) into a register, then the block halves a shared-memory
// array step by step (blockDim.x a power of two) until one value is left: the classic tree. out[blockIdx.x]
// receives the block's total (the first pass: one partial per block; the second: one block, the sum).
template <class Acc, class Src>
__global__ void tree_sum_kernel(Src src, u64 n, Acc* out) {
  extern __shared__ __align__(16) unsigned char tree_bytes[];
  Acc* tree = reinterpret_cast<Acc*>(tree_bytes);
  Acc s = 0;
  const u64 stride = u64(gridDim.x) * blockDim.x;
  for (u64 i = blockIdx.x * u64(blockDim.x) + threadIdx.x; i < n; i += stride) s += Acc(src(i));
  tree[threadIdx.x] = s;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
    if (threadIdx.x < half) tree[threadIdx.x] += tree[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = tree[0];
}

// `warp` for generated values: a grid sized to the device, each thread adds many values (grid-stride, four
// independent values per step so that their computations overlap), then warp shuffles and one atomic per
// block.
template <class Acc, class Src>
__global__ void warp_sum_kernel(Src src, u64 n, Acc* result) {
  Acc s = 0;
  const u64 stride = u64(gridDim.x) * blockDim.x;
  u64 i = blockIdx.x * u64(blockDim.x) + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride)
    s += (Acc(src(i)) + Acc(src(i + stride))) + (Acc(src(i + 2 * stride)) + Acc(src(i + 3 * stride)));
  for (; i < n; i += stride) s += Acc(src(i));
  s = block_total(s);
  if (threadIdx.x == 0) atomicAdd(result, s);
}

// Partials of the first `shared` pass, read by the second.
template <class Acc>
struct PartialsSource {
  const Acc* partials;
  __device__ Acc operator()(u64 i) const { return partials[i]; }
};

}  // namespace ks::lab::kernels
