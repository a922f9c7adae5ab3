// The "tiled" variant of the window filters, as a course would write it: each block copies its pixels plus the
// halo into shared memory once, then every thread computes its pixel from there. Every input pixel is read from
// global memory (bx + 2r)(by + 2r) / (bx by) times instead of (2r+1)^2 times.
// What makes it a good tiled kernel rather than a first one:
//   - coalesced loads, halo included: tile rows are read by consecutive threads, whole pixels at a time (one
//     32-bit word for RGBA u8, one float4 for RGBA f32);
//   - the border rule only where the tile leaves the image: one test per block, plain loads everywhere else (the
//     remap per element cost more than the filter itself at 3x3);
//   - no bank conflicts: the tile's row pitch is padded so the rows one warp reads land on different banks
//     (tiled_design.cpp), and a thread reads its pixel's channels in one access;
//   - a small tile: (bx + 2r)(by + 2r) pixels, so shared memory does not limit the blocks per SM at the usual
//     radii (32x8 blocks, 3x3: 340 bytes of u8).
// The filters that do not separate run a kernel with several outputs per thread instead (window_multi.cu), and
// the median runs selection networks (median_network.cu): see tiled_design.hpp.
#include "core/launch_geometry.hpp"
#include "stencil/cuda/filter_taps.cuh"
#include "stencil/cuda/median_network.cuh"
#include "stencil/cuda/stencil_launch.cuh"
#include "stencil/cuda/window_multi.cuh"
#include "stencil/tiled_design.hpp"

namespace ks::cuda {

namespace {

// A pixel's C channels as one aligned access (a word for 4 u8, a 16-byte vector for 4 floats).
template <class T, int C>
struct alignas(C * sizeof(T)) Pixel {
  T c[C];
};

template <class T, int C>
__device__ __forceinline__ Pixel<T, C> pixel_at(const ImageView<T, C>& in, int x, int y) {
  return reinterpret_cast<const Pixel<T, C>*>(in.row(y))[x];
}

template <class T, int C>
__device__ __forceinline__ Pixel<T, C> pixel_through_border(const ImageView<T, C>& in, int x, int y,
                                                            const BorderRead& border) {
  Pixel<T, C> p;
#pragma unroll
  for (int c = 0; c < C; ++c) p.c[c] = border.read(in, x, y, c);
  return p;
}

// At most 32 registers (2 blocks of 1024 threads per SM): whatever the block shape, registers never keep the SM
// below full occupancy (the RGBA kernels asked for 36-41 and lost a quarter of the warps at 16x16).
template <class T, int C, int KIND>
__global__ void __launch_bounds__(1024, 2) tiled_window_kernel(ImageView<T, C> in, ImageView<T, C> out, const Acc<T>* __restrict__ wa,
                                    const Acc<T>* __restrict__ wb, int rx, int ry, int pitch, BorderRead border,
                                    FinishParams fp) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int bx = int(blockDim.x), by = int(blockDim.y);
  const int tw = bx + 2 * rx, th = by + 2 * ry;
  const int x0 = int(blockIdx.x) * bx - rx, y0 = int(blockIdx.y) * by - ry;  // the tile's first pixel

  // 1. The tile: row by row, consecutive threads on consecutive pixels.
  const bool inside = x0 >= 0 && y0 >= 0 && x0 + tw <= in.width && y0 + th <= in.height;
  for (int ty = int(threadIdx.y); ty < th; ty += by) {
    Pixel<T, C>* trow = reinterpret_cast<Pixel<T, C>*>(smem + ty * pitch);
    for (int tx = int(threadIdx.x); tx < tw; tx += bx)
      trow[tx] = inside ? pixel_at(in, x0 + tx, y0 + ty) : pixel_through_border(in, x0 + tx, y0 + ty, border);
  }
  __syncthreads();

  // 2. The window, from shared memory.
  const int x = int(blockIdx.x) * bx + int(threadIdx.x);
  const int y = int(blockIdx.y) * by + int(threadIdx.y);
  if (x >= in.width || y >= in.height) return;
  const int w = 2 * rx + 1;
  // Window rows summed separately, then added (see naive_window.cu: f32 rounding).
  Acc<T> sa[C] = {}, sb[C] = {};
  for (int dy = 0; dy <= 2 * ry; ++dy) {
    const Pixel<T, C>* trow = reinterpret_cast<const Pixel<T, C>*>(smem + (int(threadIdx.y) + dy) * pitch) +
                              threadIdx.x;
    Acc<T> ra[C] = {}, rb[C] = {};
    for (int dx = 0; dx < w; ++dx) {
      const Acc<T> a = wa[dy * w + dx];  // the same address in every thread: one broadcast load per warp
      const Acc<T> b = KIND == kGradient ? wb[dy * w + dx] : Acc<T>(0);
      const Pixel<T, C> p = trow[dx];
#pragma unroll
      for (int c = 0; c < C; ++c) {
        const Acc<T> v = Acc<T>(p.c[c]);
        ra[c] += a * v;
        if constexpr (KIND == kGradient) rb[c] += b * v;
      }
    }
#pragma unroll
    for (int c = 0; c < C; ++c) {
      sa[c] += ra[c];
      sb[c] += rb[c];
    }
  }
  const Pixel<T, C> src =
      reinterpret_cast<const Pixel<T, C>*>(smem + (int(threadIdx.y) + ry) * pitch)[threadIdx.x + rx];
  Pixel<T, C> r;
#pragma unroll
  for (int c = 0; c < C; ++c) r.c[c] = finish<KIND>(sa[c], sb[c], src.c[c], fp);
  reinterpret_cast<Pixel<T, C>*>(out.row(y))[x] = r;
}

StencilLaunch make_lesson_launch(const StencilJob& job, const TiledDesign& design) {
  return dispatch_pixel(job.type, job.channels, [&]<class T, int C>() {
    return dispatch_finish(job.plan, [&]<int KIND>() {
      const int rx = job.plan.radius_x(), ry = job.plan.radius_y();
      StencilLaunch l;
      l.shape.func = reinterpret_cast<const void*>(&tiled_window_kernel<T, C, KIND>);
      l.shape.name = kernel_name<T, C>("tiled_window", finish_name(KIND));
      l.shape.block = block_dim(job.block);
      l.shape.dynamic_shared = design.shared_bytes;
      validate_launch(job.device, l.shape);
      const Acc<T>* wa = upload_window_weights<Acc<T>>(l, job.plan);
      const Acc<T>* wb = KIND == kGradient ? wa + window_taps(job.plan) : wa;
      const BorderRead br = border_read(job.plan, job.type);
      const FinishParams fp = finish_params(job.plan);
      const dim3 block = l.shape.block;
      // The grid the launch overlay draws (core/launch_geometry.hpp): one thread per pixel.
      const LaunchGeometry geo = window_launch(job.width, job.height, job.block, rx, ry, true);
      const dim3 grid(unsigned(geo.grid_x()), unsigned(geo.grid_y()));
      check_grid(grid);
      const std::size_t smem = design.shared_bytes;
      const int pitch = int(design.row_pitch);
      l.run = [=, job_w = job.width, job_h = job.height](cudaStream_t s, const DeviceImages& d) {
        const ImageView<T, C> in{d.in, d.in_pitch, job_w, job_h}, out{d.out, d.out_pitch, job_w, job_h};
        tiled_window_kernel<T, C, KIND><<<grid, block, smem, s>>>(in, out, wa, wb, rx, ry, pitch, br, fp);
      };
      return l;
    });
  });
}

}  // namespace

StencilLaunch make_tiled_launch(const StencilJob& job) {
  const TiledDesign design = tiled_design(job.plan, job.type, job.channels, job.block);
  switch (design.kernel) {
    case TiledKernel::Median: return make_median_network_launch(job);
    case TiledKernel::WindowMulti: return make_window_multi_launch(job, design);
    default: return make_lesson_launch(job, design);
  }
}

}  // namespace ks::cuda
