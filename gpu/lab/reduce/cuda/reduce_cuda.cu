// `reduce` on the GPU: the lab's sum variants over an f32 array in device memory (see device_sum.hpp).
#include <cstdint>

#include "lab/reduce/cuda/sum_driver.cuh"
#include "lab/reduce/device_sum.hpp"

namespace ks::lab {
namespace kernels {
namespace {

struct ArraySource {
  const float* x;
  __device__ float operator()(u64 i) const { return x[i]; }
};

template <class Acc>
__device__ __forceinline__ Acc sum4(float4 v) {
  return (Acc(v.x) + Acc(v.y)) + (Acc(v.z) + Acc(v.w));
}

// Values one thread adds per loop step: four 16-byte loads issued before any is used, so that each thread
// keeps 64 bytes in flight; with the grid sized to the device that is what saturates HBM.
constexpr int kVectorsPerStep = 4;

// `warp` for an array: 16-byte loads (float4) from the first 16-byte boundary on, the up to 3 values before
// it and the up to 3 after the last whole vector by single loads; warp shuffles; one atomicAdd per block.
template <class Acc>
__global__ void warp_sum_vec4_kernel(const float* x, u64 n, Acc* result) {
  const u64 tid = blockIdx.x * u64(blockDim.x) + threadIdx.x;
  const u64 threads = u64(gridDim.x) * blockDim.x;
  const u64 misalignment =
      (16 - (reinterpret_cast<std::uintptr_t>(x) & 15)) & 15;  // bytes; x is 4-byte aligned
  const u64 head = misalignment / 4 < n ? misalignment / 4 : n;
  const u64 vectors = (n - head) / 4;
  const u64 tail_begin = head + vectors * 4;
  Acc s = 0;
  if (tid < head) s += Acc(x[tid]);
  if (tid < n - tail_begin) s += Acc(x[tail_begin + tid]);
  const float4* v = reinterpret_cast<const float4*>(x + head);
  u64 i = tid;
  for (; i + (kVectorsPerStep - 1) * threads < vectors; i += kVectorsPerStep * threads) {
    float4 r[kVectorsPerStep];
#pragma unroll
    for (int k = 0; k < kVectorsPerStep; ++k) r[k] = v[i + k * threads];
#pragma unroll
    for (int k = 0; k < kVectorsPerStep; ++k) s += sum4<Acc>(r[k]);
  }
  for (; i < vectors; i += threads) s += sum4<Acc>(v[i]);
  s = block_total(s);
  if (threadIdx.x == 0) atomicAdd(result, s);
}

template <class Acc>
WarpKernel array_warp_kernel() {
  return {reinterpret_cast<const void*>(warp_sum_vec4_kernel<Acc>), "warp_sum_vec4", 4 * kVectorsPerStep};
}

template <class Acc>
DeviceSumPlan plan(SumVariant v, long long n, int block, const DeviceInfo& device) {
  const Accumulate a = sizeof(Acc) == 8 ? Accumulate::F64 : Accumulate::F32;
  return plan_sum<Acc, ArraySource>(v, a, n, block, device, static_cast<const float*>(nullptr),
                                    array_warp_kernel<Acc>());
}

template <class Acc>
void run(const DeviceSumPlan& p, const float* x, Acc* result, void* workspace, cudaStream_t stream) {
  run_sum<Acc>(p, ArraySource{x}, x, result, workspace, stream,
               [&](dim3 grid, dim3 block, Acc* r, cudaStream_t s) {
                 warp_sum_vec4_kernel<Acc><<<grid, block, 0, s>>>(x, u64(p.n), r);
                 ks::cuda::check_launch("warp_sum_vec4");
               });
}

}  // namespace
}  // namespace kernels

DeviceSumPlan plan_array_sum(SumVariant variant, Accumulate accumulate, long long n, int block,
                             const DeviceInfo& device) {
  return accumulate == Accumulate::F64 ? kernels::plan<double>(variant, n, block, device)
                                       : kernels::plan<float>(variant, n, block, device);
}

void array_sum(const DeviceSumPlan& plan, const float* d_x, void* d_result, void* d_workspace, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  if (plan.accumulate == Accumulate::F64)
    kernels::run(plan, d_x, static_cast<double*>(d_result), d_workspace, s);
  else
    kernels::run(plan, d_x, static_cast<float*>(d_result), d_workspace, s);
}

}  // namespace ks::lab
