#pragma once
// The first two matmul lessons (row-major f32, C = A * B with A m x k, B k x n).
#include <cuda_runtime.h>

namespace ks::lab::kernels {

// `naive`: one thread per element of C (x along a row of C, so a warp reads a row of B and writes a row of C
// coalesced); every term reads A and B from global memory (the caches catch much of it).
__global__ void matmul_naive_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                    float* __restrict__ c, int m, int n, int k) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= m || col >= n) return;
  const float* arow = a + (long long)row * k;
  float s = 0;
  for (int p = 0; p < k; ++p) s += arow[p] * b[(long long)p * n + col];
  c[(long long)row * n + col] = s;
}

// `tiled`: a T x T block computes a T x T tile of C; for each step of T along k it loads a T x T tile of A
// and one of B into shared memory (one value per thread, zeros outside the matrices), so each value read from
// global memory is used T times.
template <int T>
__global__ void matmul_tiled_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                    float* __restrict__ c, int m, int n, int k) {
  __shared__ float as[T][T];
  __shared__ float bs[T][T];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float s = 0;
  for (int k0 = 0; k0 < k; k0 += T) {
    as[ty][tx] = row < m && k0 + tx < k ? a[(long long)row * k + k0 + tx] : 0.0f;
    bs[ty][tx] = k0 + ty < k && col < n ? b[(long long)(k0 + ty) * n + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int p = 0; p < T; ++p) s += as[ty][p] * bs[p][tx];  // as: one address per row (broadcast)
    __syncthreads();
  }
  if (row < m && col < n) c[(long long)row * n + col] = s;
}

}  // namespace ks::lab::kernels
