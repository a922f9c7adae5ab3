#pragma once
// Window-sum kernels for Linear, GradientMagnitude and UnsharpMask plans, in three variants:
//   naive      one thread per output pixel; every tap read from global memory through the border remap
//   tiled      the block's input tile plus halo goes to shared memory once; taps read from there
//   separable  fused: tile to shared memory, row pass into shared memory, column pass to the output; each
//              thread produces kRowsPerThread outputs down a column so the halo rows are shared
#include "stencil/cuda/stencil_device.cuh"

namespace ks::cuda {

template <class T, int C, int KIND>
__global__ void naive_window_kernel(ImageView<T, C> in, ImageView<T, C> out, const Acc<T>* wa, const Acc<T>* wb,
                                    int rx, int ry, BorderRead border, FinishParams fp) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= in.width || y >= in.height) return;
  const int w = 2 * rx + 1;
  for (int c = 0; c < C; ++c) {
    Acc<T> sa = 0, sb = 0;
    for (int dy = -ry; dy <= ry; ++dy)
      for (int dx = -rx; dx <= rx; ++dx) {
        const Acc<T> v = Acc<T>(border.read(in, x + dx, y + dy, c));
        const int k = (dy + ry) * w + (dx + rx);
        sa += wa[k] * v;
        if constexpr (KIND == kGradient) sb += wb[k] * v;
      }
    out.row(y)[x * C + c] = finish<KIND>(sa, sb, in.at(x, y, c), fp);
  }
}

// Shared memory layout of the tiled kernel: the input tile (T), then the weights of a and b (Acc).
template <class T, int C>
__host__ __device__ constexpr std::size_t tiled_tile_elems(int bx, int by, int rx, int ry) {
  return std::size_t(bx + 2 * rx) * std::size_t(by + 2 * ry) * C;
}

template <class T>
__host__ __device__ constexpr std::size_t align_up(std::size_t bytes) {
  return (bytes + 15) & ~std::size_t(15);
}

template <class T, int C, int KIND>
__global__ void tiled_window_kernel(ImageView<T, C> in, ImageView<T, C> out, const Acc<T>* wa, const Acc<T>* wb,
                                    int rx, int ry, BorderRead border, FinishParams fp) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int bx = blockDim.x, by = blockDim.y;
  const int tw = bx + 2 * rx, th = by + 2 * ry;
  const int taps = (2 * rx + 1) * (2 * ry + 1);
  T* tile = reinterpret_cast<T*>(smem);
  Acc<T>* swa = reinterpret_cast<Acc<T>*>(smem + align_up<T>(tiled_tile_elems<T, C>(bx, by, rx, ry) * sizeof(T)));
  Acc<T>* swb = swa + taps;

  const int tid = threadIdx.y * bx + threadIdx.x;
  const int nthreads = bx * by;
  for (int k = tid; k < taps; k += nthreads) {
    swa[k] = wa[k];
    if constexpr (KIND == kGradient) swb[k] = wb[k];
  }
  const int x0 = blockIdx.x * bx - rx, y0 = blockIdx.y * by - ry;
  for (int i = tid; i < tw * th; i += nthreads) {
    const int ty = i / tw, tx = i % tw;
    for (int c = 0; c < C; ++c) tile[i * C + c] = border.read(in, x0 + tx, y0 + ty, c);
  }
  __syncthreads();

  const int x = blockIdx.x * bx + threadIdx.x;
  const int y = blockIdx.y * by + threadIdx.y;
  if (x >= in.width || y >= in.height) return;
  const int w = 2 * rx + 1;
  for (int c = 0; c < C; ++c) {
    Acc<T> sa = 0, sb = 0;
    for (int dy = 0; dy <= 2 * ry; ++dy) {
      const T* trow = tile + ((threadIdx.y + dy) * tw + threadIdx.x) * C + c;
      for (int dx = 0; dx <= 2 * rx; ++dx) {
        const Acc<T> v = Acc<T>(trow[dx * C]);
        sa += swa[dy * w + dx] * v;
        if constexpr (KIND == kGradient) sb += swb[dy * w + dx] * v;
      }
    }
    const T src = tile[((threadIdx.y + ry) * tw + threadIdx.x + rx) * C + c];
    out.row(y)[x * C + c] = finish<KIND>(sa, sb, src, fp);
  }
}

constexpr int kRowsPerThread = 4;

// Shared memory of the separable kernel: input tile (T), then one row-pass buffer (Acc) per filter.
template <class T, int C, int KIND>
__host__ __device__ constexpr std::size_t separable_smem_bytes(int bx, int by, int rx, int ry) {
  const std::size_t th = std::size_t(by) * kRowsPerThread + 2 * ry;
  const std::size_t tile = align_up<T>(th * (bx + 2 * rx) * C * sizeof(T));
  const std::size_t rows = th * bx * C * sizeof(Acc<T>);
  return tile + rows * (KIND == kGradient ? 2 : 1);
}

template <class T, int C, int KIND>
__global__ void separable_window_kernel(ImageView<T, C> in, ImageView<T, C> out, Taps<Acc<T>> ax,
                                        Taps<Acc<T>> ay, Taps<Acc<T>> bx_taps, Taps<Acc<T>> by_taps,
                                        BorderRead border, FinishParams fp) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int bx = blockDim.x, by = blockDim.y;
  const int rx = ax.count / 2, ry = ay.count / 2;
  const int tile_h = by * kRowsPerThread;  // output rows of this block
  const int tw = bx + 2 * rx, th = tile_h + 2 * ry;
  T* tile = reinterpret_cast<T*>(smem);
  Acc<T>* ha = reinterpret_cast<Acc<T>*>(smem + align_up<T>(std::size_t(th) * tw * C * sizeof(T)));
  Acc<T>* hb = ha + std::size_t(th) * bx * C;

  const int tid = threadIdx.y * bx + threadIdx.x;
  const int nthreads = bx * by;
  const int x0 = blockIdx.x * bx - rx, y0 = blockIdx.y * tile_h - ry;
  for (int i = tid; i < tw * th; i += nthreads) {
    const int ty = i / tw, tx = i % tw;
    for (int c = 0; c < C; ++c) tile[i * C + c] = border.read(in, x0 + tx, y0 + ty, c);
  }
  __syncthreads();

  // Row pass: every tile row (halo rows included), the block's output columns.
  for (int i = tid; i < th * bx; i += nthreads) {
    const int r = i / bx, col = i % bx;
    for (int c = 0; c < C; ++c) {
      const T* src = tile + (r * tw + col) * C + c;
      Acc<T> sa = 0, sb = 0;
      for (int k = 0; k < ax.count; ++k) {
        const Acc<T> v = Acc<T>(src[k * C]);
        sa += ax.w[k] * v;
        if constexpr (KIND == kGradient) sb += bx_taps.w[k] * v;
      }
      ha[(r * bx + col) * C + c] = sa;
      if constexpr (KIND == kGradient) hb[(r * bx + col) * C + c] = sb;
    }
  }
  __syncthreads();

  // Column pass: kRowsPerThread outputs per thread, strided by the block height so warps stay row-coherent.
  const int x = blockIdx.x * bx + threadIdx.x;
  if (x >= in.width) return;
  for (int j = 0; j < kRowsPerThread; ++j) {
    const int ly = threadIdx.y + j * by;
    const int y = blockIdx.y * tile_h + ly;
    if (y >= in.height) return;
    for (int c = 0; c < C; ++c) {
      Acc<T> sa = 0, sb = 0;
      for (int k = 0; k < ay.count; ++k) {
        const std::size_t at = (std::size_t(ly + k) * bx + threadIdx.x) * C + c;
        sa += ay.w[k] * ha[at];
        if constexpr (KIND == kGradient) sb += by_taps.w[k] * hb[at];
      }
      const T src = tile[((ly + ry) * tw + threadIdx.x + rx) * C + c];
      out.row(y)[x * C + c] = finish<KIND>(sa, sb, src, fp);
    }
  }
}

}  // namespace ks::cuda
