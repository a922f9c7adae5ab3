// The "tiled" variant of the window filters: each block copies its output tile plus the halo (border remapped at
// load) into shared memory once, then every thread computes its pixel from there. Every input pixel is read
// from global memory (2r+B)^2/B^2 times instead of (2r+1)^2 times.
#include "core/launch_geometry.hpp"
#include "stencil/cuda/filter_taps.cuh"
#include "stencil/cuda/stencil_launch.cuh"

namespace ks::cuda {

namespace {

// The tile with its halo, (bx + 2 rx) x (by + 2 ry) pixels: the one the launch overlay outlines.
template <class T, int C>
std::size_t tile_bytes(const LaunchGeometry& geo) {
  return std::size_t(geo.tile_width()) * std::size_t(geo.tile_height()) * C * sizeof(T);
}

template <class T, int C, int KIND>
__global__ void tiled_window_kernel(ImageView<T, C> in, ImageView<T, C> out, const Acc<T>* __restrict__ wa,
                                    const Acc<T>* __restrict__ wb, int rx, int ry, BorderRead border,
                                    FinishParams fp) {
  extern __shared__ __align__(16) unsigned char smem[];
  T* tile = reinterpret_cast<T*>(smem);
  const int bx = blockDim.x, by = blockDim.y;
  const int tw = bx + 2 * rx, th = by + 2 * ry;
  fill_tile(tile, in, int(blockIdx.x) * bx - rx, int(blockIdx.y) * by - ry, tw, th, border);
  __syncthreads();

  const int x = blockIdx.x * bx + threadIdx.x;
  const int y = blockIdx.y * by + threadIdx.y;
  if (x >= in.width || y >= in.height) return;
  const int w = 2 * rx + 1;
  // Window rows summed separately, then added (see naive_window.cu: f32 rounding).
  Acc<T> sa[C] = {}, sb[C] = {};
  for (int dy = 0; dy <= 2 * ry; ++dy) {
    const T* trow = tile + ((threadIdx.y + dy) * tw + threadIdx.x) * C;
    Acc<T> ra[C] = {}, rb[C] = {};
    for (int dx = 0; dx <= 2 * rx; ++dx) {
      const Acc<T> a = wa[dy * w + dx];  // the same address in every thread: one broadcast load per warp
      const Acc<T> b = KIND == kGradient ? wb[dy * w + dx] : Acc<T>(0);
#pragma unroll
      for (int c = 0; c < C; ++c) {
        const Acc<T> v = Acc<T>(trow[dx * C + c]);
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
  const T* src = tile + ((threadIdx.y + ry) * tw + threadIdx.x + rx) * C;
#pragma unroll
  for (int c = 0; c < C; ++c) out.row(y)[x * C + c] = finish<KIND>(sa[c], sb[c], src[c], fp);
}

}  // namespace

StencilLaunch make_tiled_launch(const StencilJob& job) {
  return dispatch_pixel(job.type, job.channels, [&]<class T, int C>() {
    return dispatch_finish(job.plan, [&]<int KIND>() {
      const int rx = job.plan.radius_x(), ry = job.plan.radius_y();
      StencilLaunch l;
      l.shape.func = reinterpret_cast<const void*>(&tiled_window_kernel<T, C, KIND>);
      l.shape.name = kernel_name<T, C>("tiled_window", finish_name(KIND));
      l.shape.block = block_dim(job.block);
      const LaunchGeometry geo = window_launch(job.width, job.height, job.block, rx, ry, true);
      l.shape.dynamic_shared = tile_bytes<T, C>(geo);
      validate_launch(job.device, l.shape);
      const std::vector<Acc<T>> w = plan_window_weights<Acc<T>>(job.plan);
      l.weights = std::make_shared<DeviceBuffer>(upload_array(w.data(), w.size(), "filter weights"));
      const Acc<T>* wa = l.weights->as<Acc<T>>();
      const Acc<T>* wb = KIND == kGradient ? wa + w.size() / 2 : wa;
      const BorderRead br = border_read(job.plan, job.type);
      const FinishParams fp = finish_params(job.plan);
      const dim3 block = l.shape.block;
      const dim3 grid(unsigned(geo.grid_x()), unsigned(geo.grid_y()));
      check_grid(grid);
      const std::size_t smem = l.shape.dynamic_shared;
      l.run = [=, job_w = job.width, job_h = job.height](cudaStream_t s, const DeviceImages& d) {
        const ImageView<T, C> in{d.in, d.in_pitch, job_w, job_h}, out{d.out, d.out_pitch, job_w, job_h};
        tiled_window_kernel<T, C, KIND><<<grid, block, smem, s>>>(in, out, wa, wb, rx, ry, br, fp);
      };
      return l;
    });
  });
}

}  // namespace ks::cuda
