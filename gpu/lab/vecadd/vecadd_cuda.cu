// The CUDA variants of vecadd and saxpy. Arrays in launch order: vecadd (a, b, c), saxpy (x, y) with y
// updated in place, so `out` may alias `y` (no __restrict__). One IEEE operation per element: __fadd_rn or
// __fmaf_rn, which the CPU reference's + and std::fma match to the bit.
#include <cuda_runtime.h>

#include <cstdint>

#include "lab/cuda/lab_launch.cuh"
#include "lab/vecadd/vecadd_cuda.hpp"
#include "registry/params.hpp"

namespace ks::lab {

namespace {

template <VecOp Op>
__device__ __forceinline__ float apply(float x, float y, float alpha) {
  if constexpr (Op == VecOp::Add) return __fadd_rn(x, y);
  else return __fmaf_rn(alpha, x, y);
}

template <VecOp Op>
__global__ void vec_naive(const float* x, const float* y, float* out, float alpha, long long n) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = apply<Op>(x[i], y[i], alpha);
}

template <VecOp Op>
__global__ void vec_gridstride(const float* x, const float* y, float* out, float alpha, long long n) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = apply<Op>(x[i], y[i], alpha);
}

// `head` scalar elements until the arrays are 16-byte aligned, `body` float4s, then `tail` scalar elements.
// Thread t does float4 t, and head element t and tail element t when those exist (head, tail < 4).
template <VecOp Op>
__global__ void vec_vector4(const float* x, const float* y, float* out, float alpha, long long head, long long body,
                            long long tail) {
  const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t < body) {
    const float4 a = reinterpret_cast<const float4*>(x + head)[t];
    const float4 b = reinterpret_cast<const float4*>(y + head)[t];
    float4 c;
    c.x = apply<Op>(a.x, b.x, alpha);
    c.y = apply<Op>(a.y, b.y, alpha);
    c.z = apply<Op>(a.z, b.z, alpha);
    c.w = apply<Op>(a.w, b.w, alpha);
    reinterpret_cast<float4*>(out + head)[t] = c;
  }
  if (t < head) out[t] = apply<Op>(x[t], y[t], alpha);
  if (t < tail) {
    const long long i = head + 4 * body + t;
    out[i] = apply<Op>(x[i], y[i], alpha);
  }
}

enum class Variant { Naive, GridStride, Vector4 };

// The vector4 split of n elements starting at these pointers.
struct Vector4Split {
  long long head = 0, body = 0, tail = 0;
  bool aligned = true;  // all three arrays share the same misalignment, so one head aligns them all
};

Vector4Split split_for(const float* x, const float* y, const float* out, long long n) {
  Vector4Split s;
  const auto ax = reinterpret_cast<std::uintptr_t>(x), ay = reinterpret_cast<std::uintptr_t>(y),
             ao = reinterpret_cast<std::uintptr_t>(out);
  s.aligned = (ax % 16 == ao % 16) && (ay % 16 == ao % 16) && ao % 4 == 0;
  if (!s.aligned) return s;
  s.head = std::min<long long>(n, (long long)((16 - ao % 16) % 16) / 4);
  s.body = (n - s.head) / 4;
  s.tail = n - s.head - 4 * s.body;
  return s;
}

template <VecOp Op>
class VecRun final : public LabCudaRun {
 public:
  VecRun(const CudaSetup& setup, Variant variant)
      : variant_(variant), block_(setup.block.x), device_(*setup.device),
        alpha_(Op == VecOp::Saxpy ? float(setup.params->get_float("alpha")) : 0.0f) {
    // Validates the block for every kernel this variant may launch (vector4 falls back to the grid-stride loop
    // for arrays of different alignment).
    stride_occupancy_ = cuda::occupancy_for(vec_gridstride<Op>, "vec_gridstride", setup);
    switch (variant) {
      case Variant::Naive:
        occupancy_ = cuda::occupancy_for(vec_naive<Op>, "vec_naive", setup);
        break;
      case Variant::GridStride:
        occupancy_ = stride_occupancy_;
        break;
      case Variant::Vector4:
        occupancy_ = cuda::occupancy_for(vec_vector4<Op>, "vec_vector4", setup);
        break;
    }
  }

  std::optional<LaunchGeometry> geometry(const LabSize& piece) const override {
    LaunchGeometry g;
    g.block = {block_, 1};
    g.occupancy = occupancy_;
    const long long n = piece.n();
    switch (variant_) {
      case Variant::Naive:
        g.work_items = n;
        g.grid_x = cuda::blocks_for(n, block_);
        break;
      case Variant::GridStride:
        g.work_items = n;
        g.grid_x = cuda::device_filling_grid(occupancy_, device_, n, block_);
        break;
      case Variant::Vector4: {
        // Whole arrays start 256-byte aligned: no head; the tail's threads are those of the first float4s.
        const long long body = n / 4, tail = n % 4;
        g.work_items = std::max(body, tail);
        g.grid_x = cuda::blocks_for(g.work_items, block_);
        break;
      }
    }
    return g;
  }

  void launch(const LabLaunch& l) override {
    const float* x = static_cast<const float*>(l.arrays[0].data);
    const float* y = static_cast<const float*>(l.arrays[1].data);
    float* out = static_cast<float*>(l.arrays[Op == VecOp::Add ? 2 : 1].data);
    const long long n = l.size.n();
    cudaStream_t s = cuda::stream_of(l);
    switch (variant_) {
      case Variant::Naive:
        vec_naive<Op><<<unsigned(cuda::blocks_for(n, block_)), block_, 0, s>>>(x, y, out, alpha_, n);
        return;
      case Variant::GridStride:
        vec_gridstride<Op><<<unsigned(cuda::device_filling_grid(stride_occupancy_, device_, n, block_)), block_, 0,
                             s>>>(x, y, out, alpha_, n);
        return;
      case Variant::Vector4: {
        const Vector4Split v = split_for(x, y, out, n);
        if (!v.aligned) {
          vec_gridstride<Op><<<unsigned(cuda::device_filling_grid(stride_occupancy_, device_, n, block_)), block_,
                               0, s>>>(x, y, out, alpha_, n);
          return;
        }
        const long long items = std::max({v.body, v.head, v.tail});
        vec_vector4<Op><<<unsigned(cuda::blocks_for(items, block_)), block_, 0, s>>>(x, y, out, alpha_, v.head,
                                                                                      v.body, v.tail);
        return;
      }
    }
  }

 private:
  Variant variant_;
  int block_;
  DeviceInfo device_;
  float alpha_;
  OccupancyReport occupancy_, stride_occupancy_;
};

}  // namespace

std::unique_ptr<LabCudaRun> make_vecadd_cuda_run(const CudaSetup& setup, VecOp op) {
  const Variant v = setup.variant == "naive"        ? Variant::Naive
                    : setup.variant == "gridstride" ? Variant::GridStride
                    : setup.variant == "vector4"    ? Variant::Vector4
                                                    : throw Error(ErrorKind::Internal, "vecadd has no CUDA variant '" +
                                                                                           setup.variant + "'");
  if (op == VecOp::Add) return std::make_unique<VecRun<VecOp::Add>>(setup, v);
  return std::make_unique<VecRun<VecOp::Saxpy>>(setup, v);
}

}  // namespace ks::lab
