// Median of the (2r+1)^2 window (r <= 3), naive: one thread per pixel, every value read from global memory, the
// window gathered into a local array and the middle found by partial selection sort. Exact for u8 and f32 alike:
// it only compares and copies. The tiled variant is median_network.cu (selection networks on a shared tile).
#include "stencil/cuda/median_network.cuh"
#include "stencil/cuda/stencil_launch.cuh"

namespace ks::cuda {

namespace {

constexpr int kMaxMedianRadius = 3;
constexpr int kMaxMedianWindow = (2 * kMaxMedianRadius + 1) * (2 * kMaxMedianRadius + 1);

// Sorts v[0..mid] into place (selection), so v[mid] is the median of the n values; n odd.
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

}  // namespace

StencilLaunch make_median_launch(const StencilJob& job, bool tiled) {
  const int r = job.plan.median_radius;
  if (r < 0 || r > kMaxMedianRadius)
    throw_usage("median radius " + std::to_string(r) + " is not supported on CUDA", "use radius 1 to 3");
  if (tiled) return make_median_network_launch(job);
  return dispatch_pixel(job.type, job.channels, [&]<class T, int C>() {
    StencilLaunch l;
    l.shape.block = block_dim(job.block);
    l.shape.func = reinterpret_cast<const void*>(&naive_median_kernel<T, C>);
    l.shape.name = kernel_name<T, C>("naive_median");
    validate_launch(job.device, l.shape);
    const BorderRead br = border_read(job.plan, job.type);
    const dim3 block = l.shape.block;
    const dim3 grid(ceil_div(job.width, block.x), ceil_div(job.height, block.y));
    check_grid(grid);
    l.run = [=, job_w = job.width, job_h = job.height](cudaStream_t s, const DeviceImages& d) {
      const ImageView<T, C> in{d.in, d.in_pitch, job_w, job_h}, out{d.out, d.out_pitch, job_w, job_h};
      naive_median_kernel<T, C><<<grid, block, 0, s>>>(in, out, r, br);
    };
    return l;
  });
}

}  // namespace ks::cuda
