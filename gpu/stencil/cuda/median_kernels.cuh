#pragma once
// Median of the (2r+1)^2 window (r <= 3): gather the window, then select the middle by partial selection sort.
// Exact for u8 and f32 (it only compares and copies).
#include "stencil/cuda/linear_kernels.cuh"

namespace ks::cuda {

constexpr int kMaxMedianWindow = 49;  // 7x7

template <class T>
__device__ __forceinline__ T select_middle(T* v, int n) {
  const int mid = n / 2;
  for (int i = 0; i <= mid; ++i) {
    int best = i;
    for (int j = i + 1; j < n; ++j)
      if (v[j] < v[best]) best = j;
    const T t = v[i];
    v[i] = v[best];
    v[best] = t;
  }
  return v[mid];
}

template <class T, int C>
__global__ void naive_median_kernel(ImageView<T, C> in, ImageView<T, C> out, int r, BorderRead border) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= in.width || y >= in.height) return;
  T window[kMaxMedianWindow];
  for (int c = 0; c < C; ++c) {
    int n = 0;
    for (int dy = -r; dy <= r; ++dy)
      for (int dx = -r; dx <= r; ++dx) window[n++] = border.read(in, x + dx, y + dy, c);
    out.row(y)[x * C + c] = select_middle(window, n);
  }
}

template <class T, int C>
__global__ void tiled_median_kernel(ImageView<T, C> in, ImageView<T, C> out, int r, BorderRead border) {
  extern __shared__ __align__(16) unsigned char smem[];
  T* tile = reinterpret_cast<T*>(smem);
  const int bx = blockDim.x, by = blockDim.y;
  const int tw = bx + 2 * r, th = by + 2 * r;
  const int tid = threadIdx.y * bx + threadIdx.x;
  const int x0 = blockIdx.x * bx - r, y0 = blockIdx.y * by - r;
  for (int i = tid; i < tw * th; i += bx * by) {
    const int ty = i / tw, tx = i % tw;
    for (int c = 0; c < C; ++c) tile[i * C + c] = border.read(in, x0 + tx, y0 + ty, c);
  }
  __syncthreads();
  const int x = blockIdx.x * bx + threadIdx.x;
  const int y = blockIdx.y * by + threadIdx.y;
  if (x >= in.width || y >= in.height) return;
  T window[kMaxMedianWindow];
  for (int c = 0; c < C; ++c) {
    int n = 0;
    for (int dy = 0; dy <= 2 * r; ++dy)
      for (int dx = 0; dx <= 2 * r; ++dx) window[n++] = tile[((threadIdx.y + dy) * tw + threadIdx.x + dx) * C + c];
    out.row(y)[x * C + c] = select_middle(window, n);
  }
}

}  // namespace ks::cuda
