#pragma once
// Plans and runs one of the lab's sums for any value source (see sum_kernels.cuh): the launch arithmetic, the
// workspace, and the passes of each variant. reduce_cuda.cu and integrate_cuda.cu instantiate it.
#include <cuda_runtime.h>

#include <algorithm>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <string>

#include "core/cuda/check.cuh"
#include "core/cuda/launch_check.cuh"
#include "core/error.hpp"
#include "lab/reduce/cuda/sum_kernels.cuh"

namespace ks::lab::kernels {

// The second pass of `shared` reduces the per-block partials with one block of this many threads.
inline constexpr int kSecondPassThreads = 1024;

// The block sizes each variant can use; a usage Error says which to choose otherwise.
inline void check_sum_block(SumVariant v, int block) {
  const std::string b = std::to_string(block);
  if (block < 1 || block > 1024)
    throw_usage("block " + b + " is not a CUDA block size", "use 1 to 1024 threads (256 is a good start)");
  if (v == SumVariant::Shared && (block & (block - 1)) != 0)
    throw_usage(
        "the shared variant halves its block step by step and cannot use a block of " + b + " threads",
        "use a power of two: 32, 64, 128, 256, 512 or 1024");
  if (v == SumVariant::Warp && block % 32 != 0)
    throw_usage("the warp variant sums whole warps of 32 threads and cannot use a block of " + b + " threads",
                "use a multiple of 32, e.g. 256");
}

// What a source needs beside its values: the kernels of its `warp` variant.
struct WarpKernel {
  const void* func = nullptr;  // the __global__ function (for validation and occupancy)
  const char* name = "";
  long long values_per_step = 1;  // the fewest values the grid leaves each thread (16: four 16-byte loads)
};

// CUB's temporary storage for n values from `input` summed in Acc.
template <class Acc, class Input>
std::size_t cub_temp_bytes(Input input, long long n) {
  std::size_t bytes = 0;
  ks::cuda::check(cub::DeviceReduce::Reduce(nullptr, bytes, input, static_cast<Acc*>(nullptr), n,
                                            ::cuda::std::plus<Acc>{}, Acc(0)),
                  "cub::DeviceReduce (temporary storage query)");
  return bytes;
}

template <class Acc, class Src, class CubInput>
DeviceSumPlan plan_sum(SumVariant v, Accumulate a, long long n, int block, const DeviceInfo& device,
                       CubInput cub_input, const WarpKernel& warp) {
  DeviceSumPlan p;
  p.variant = v;
  p.accumulate = a;
  p.n = n;
  if (v == SumVariant::Cub) {
    p.workspace_bytes = cub_temp_bytes<Acc>(cub_input, n);
    p.passes = "cub::DeviceReduce (CUB picks its block, grid and passes)";
    return p;
  }
  check_sum_block(v, block);
  ks::cuda::KernelLaunchShape shape;
  shape.block = dim3(unsigned(block));
  switch (v) {
    case SumVariant::Atomic:
      shape.func = reinterpret_cast<const void*>(atomic_sum_kernel<Acc, Src>);
      shape.name = "atomic_sum";
      break;
    case SumVariant::Shared:
      shape.func = reinterpret_cast<const void*>(tree_sum_kernel<Acc, Src>);
      shape.name = "tree_sum";
      shape.dynamic_shared = std::size_t(block) * sizeof(Acc);
      break;
    default:
      shape.func = warp.func;
      shape.name = warp.name;
      break;
  }
  p.occupancy =
      ks::cuda::occupancy_of(device, shape);  // validates the block against the device and the kernel
  p.block = block;
  const long long max_grid = 0x7fffffffLL;
  if (v == SumVariant::Atomic) {
    p.grid = std::min(max_grid, std::max(1LL, (n + block - 1) / block));  // one value per thread, as taught
    p.passes = "1 kernel: one atomicAdd per value, all on one address";
  } else {
    // A grid sized to the device: as many blocks as can be resident at once, fewer when n is small.
    const long long per_step = v == SumVariant::Warp ? warp.values_per_step : 1;
    const long long resident = std::max(1LL, (long long)device.sm_count * p.occupancy.active_blocks_per_sm);
    p.grid = std::clamp((n + block * per_step - 1) / (block * per_step), 1LL, resident);
    if (v == SumVariant::Shared) {
      p.workspace_bytes = std::size_t(p.grid) * sizeof(Acc);
      p.passes = "2 kernels: a shared-memory tree per block writes " + std::to_string(p.grid) +
                 " partials, then one block of " + std::to_string(kSecondPassThreads) + " sums them";
    } else {
      p.passes = "1 kernel: warp shuffles, then one atomicAdd per block (" + std::to_string(p.grid) + ")";
    }
  }
  p.values_per_thread = (n + p.grid * block - 1) / (p.grid * block);
  return p;
}

// Runs a plan: the sum is written to *result. `launch_warp(grid, block, result, stream)` launches the
// source's `warp` kernel. The atomic variants start from a zeroed result (a memset on the stream, inside the
// timing: a fresh sum needs it).
template <class Acc, class Src, class CubInput, class LaunchWarp>
void run_sum(const DeviceSumPlan& p, Src src, CubInput cub_input, Acc* result, void* workspace,
             cudaStream_t stream, const LaunchWarp& launch_warp) {
  const u64 n = u64(p.n);
  if (p.variant == SumVariant::Cub) {
    std::size_t temp_bytes = p.workspace_bytes;
    ks::cuda::check(cub::DeviceReduce::Reduce(workspace, temp_bytes, cub_input, result, p.n,
                                              ::cuda::std::plus<Acc>{}, Acc(0), stream),
                    "cub::DeviceReduce");
    return;
  }
  const dim3 grid(unsigned(p.grid)), block(unsigned(p.block));
  if (p.variant != SumVariant::Shared)
    ks::cuda::check(cudaMemsetAsync(result, 0, sizeof(Acc), stream), "cudaMemsetAsync (sum result)");
  switch (p.variant) {
    case SumVariant::Atomic:
      atomic_sum_kernel<Acc, Src><<<grid, block, 0, stream>>>(src, n, result);
      ks::cuda::check_launch("atomic_sum");
      break;
    case SumVariant::Shared: {
      Acc* partials = static_cast<Acc*>(workspace);
      tree_sum_kernel<Acc, Src><<<grid, block, block.x * sizeof(Acc), stream>>>(src, n, partials);
      ks::cuda::check_launch("tree_sum (per block)");
      tree_sum_kernel<Acc, PartialsSource<Acc>>
          <<<1, kSecondPassThreads, kSecondPassThreads * sizeof(Acc), stream>>>(PartialsSource<Acc>{partials},
                                                                                u64(p.grid), result);
      ks::cuda::check_launch("tree_sum (partials)");
      break;
    }
    default:
      launch_warp(grid, block, result, stream);
      break;
  }
}

}  // namespace ks::lab::kernels
