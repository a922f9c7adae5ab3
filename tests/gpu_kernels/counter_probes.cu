#include <cuda_runtime.h>

#include "core/cuda/device_buffer.cuh"
#include "gpu_kernels/counter_probes.hpp"

namespace ks::test {

namespace {

constexpr int kThreads = 256;

__global__ void copy_kernel(float* __restrict__ out, const float* __restrict__ in, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

__global__ void strided_kernel(float* __restrict__ out, const float* __restrict__ in, int stride, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[std::size_t(i) * std::size_t(stride)];
}

__global__ void shared_stride_kernel(float* out, int stride, int rounds) {
  __shared__ float cells[32 * 33];
  for (int i = threadIdx.x; i < 32 * 33; i += blockDim.x) cells[i] = float(i);
  __syncthreads();
  const int lane = threadIdx.x & 31;
  float sum = 0;
  for (int r = 0; r < rounds; ++r) sum += cells[(lane * stride + r) % (32 * 33)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__global__ void branch_kernel(float* out, bool divergent, int rounds) {
  float x = float(threadIdx.x);
  const bool odd = divergent && (threadIdx.x & 1);
  if (odd) {
    for (int r = 0; r < rounds; ++r) x = x * 0.999f + 1.0f;
  } else {
    for (int r = 0; r < rounds; ++r) x = x * 1.001f - 1.0f;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

cudaStream_t stream_of(CudaContext& ctx) { return static_cast<cudaStream_t>(ctx.stream()); }

}  // namespace

CounterReading counters_of_copy(CudaContext& ctx, std::size_t bytes) {
  ctx.make_current();
  const std::size_t n = bytes / sizeof(float);
  cuda::DeviceBuffer in(n * sizeof(float), "the copy probe"), out(n * sizeof(float), "the copy probe");
  cudaMemsetAsync(in.get(), 1, n * sizeof(float), stream_of(ctx));
  const int blocks = ctx.device().sm_count * 8;
  return ctx.read_counters(
      [&] {
        copy_kernel<<<blocks, kThreads, 0, stream_of(ctx)>>>(static_cast<float*>(out.get()),
                                                              static_cast<const float*>(in.get()), n);
      },
      "copy_kernel");
}

CounterReading counters_of_strided_loads(CudaContext& ctx, int stride) {
  ctx.make_current();
  const int n = 1 << 20;
  cuda::DeviceBuffer in(std::size_t(n) * std::size_t(stride) * sizeof(float), "the stride probe");
  cuda::DeviceBuffer out(std::size_t(n) * sizeof(float), "the stride probe");
  return ctx.read_counters(
      [&] {
        strided_kernel<<<(n + kThreads - 1) / kThreads, kThreads, 0, stream_of(ctx)>>>(
            static_cast<float*>(out.get()), static_cast<const float*>(in.get()), stride, n);
      },
      "strided_kernel");
}

CounterReading counters_of_shared_stride(CudaContext& ctx, int stride) {
  ctx.make_current();
  const int blocks = ctx.device().sm_count * 4;
  cuda::DeviceBuffer out(std::size_t(blocks) * kThreads * sizeof(float), "the bank probe");
  return ctx.read_counters(
      [&] {
        shared_stride_kernel<<<blocks, kThreads, 0, stream_of(ctx)>>>(static_cast<float*>(out.get()), stride, 256);
      },
      "shared_stride_kernel");
}

CounterReading counters_of_branches(CudaContext& ctx, bool divergent) {
  ctx.make_current();
  const int blocks = ctx.device().sm_count * 4;
  cuda::DeviceBuffer out(std::size_t(blocks) * kThreads * sizeof(float), "the branch probe");
  return ctx.read_counters(
      [&] {
        branch_kernel<<<blocks, kThreads, 0, stream_of(ctx)>>>(static_cast<float*>(out.get()), divergent, 4096);
      },
      "branch_kernel");
}

}  // namespace ks::test
