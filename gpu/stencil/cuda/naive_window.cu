// The "naive" variant of the window filters: one thread per output pixel, every tap read from global memory
// through the border remap, weights read from a device buffer. The teaching baseline: simple, and slow for
// large windows because nothing is shared between neighbouring threads except what the caches catch.
#include "core/launch_geometry.hpp"
#include "stencil/cuda/filter_taps.cuh"
#include "stencil/cuda/stencil_launch.cuh"

namespace ks::cuda {

namespace {

template <class T, int C, int KIND>
__global__ void naive_window_kernel(ImageView<T, C> in, ImageView<T, C> out, const Acc<T>* __restrict__ wa,
                                    const Acc<T>* __restrict__ wb, int rx, int ry, BorderRead border,
                                    FinishParams fp) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= in.width || y >= in.height) return;
  // Each window row is summed on its own, then added: for f32 the rounding error grows with the row length plus
  // the row count, not with their product (a 41x41 box of equal values drifted past 1e-5 summed in one chain).
  Acc<T> sa[C] = {}, sb[C] = {};
  int k = 0;
  for (int dy = -ry; dy <= ry; ++dy) {
    Acc<T> ra[C] = {}, rb[C] = {};
    for (int dx = -rx; dx <= rx; ++dx, ++k) {
      Acc<T> v[C];
#pragma unroll
      for (int c = 0; c < C; ++c) v[c] = Acc<T>(border.read(in, x + dx, y + dy, c));
      add_tap<KIND>(ra, rb, wa[k], KIND == kGradient ? wb[k] : Acc<T>(0), v);
    }
    add_row(sa, sb, ra, rb);
  }
#pragma unroll
  for (int c = 0; c < C; ++c) out.row(y)[x * C + c] = finish<KIND>(sa[c], sb[c], in.at(x, y, c), fp);
}

}  // namespace

StencilLaunch make_naive_launch(const StencilJob& job) {
  return dispatch_pixel(job.type, job.channels, [&]<class T, int C>() {
    return dispatch_finish(job.plan, [&]<int KIND>() {
      StencilLaunch l;
      l.shape.func = reinterpret_cast<const void*>(&naive_window_kernel<T, C, KIND>);
      l.shape.name = kernel_name<T, C>("naive_window", finish_name(KIND));
      l.shape.block = block_dim(job.block);
      validate_launch(job.device, l.shape);
      const Acc<T>* wa = upload_window_weights<Acc<T>>(l, job.plan);
      const Acc<T>* wb = KIND == kGradient ? wa + window_taps(job.plan) : wa;
      const int rx = job.plan.radius_x(), ry = job.plan.radius_y();
      const BorderRead br = border_read(job.plan, job.type);
      const FinishParams fp = finish_params(job.plan);
      const dim3 block = l.shape.block;
      // The grid the launch overlay draws (core/launch_geometry.hpp): one thread per pixel.
      const LaunchGeometry geo = window_launch(job.width, job.height, job.block, rx, ry, false);
      const dim3 grid(unsigned(geo.grid_x()), unsigned(geo.grid_y()));
      check_grid(grid);
      l.run = [=, job_w = job.width, job_h = job.height](cudaStream_t s, const DeviceImages& d) {
        const ImageView<T, C> in{d.in, d.in_pitch, job_w, job_h}, out{d.out, d.out_pitch, job_w, job_h};
        naive_window_kernel<T, C, KIND><<<grid, block, 0, s>>>(in, out, wa, wb, rx, ry, br, fp);
      };
      return l;
    });
  });
}

}  // namespace ks::cuda
