#pragma once
// Helpers for the CUDA variants of lab kernels: the stream of a launch, grid sizes, and the occupancy (with
// launch validation) of a kernel at the run's block.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "core/cuda/check.cuh"
#include "core/cuda/launch_check.cuh"
#include "lab/lab_kernel.hpp"

namespace ks::lab::cuda {

inline cudaStream_t stream_of(const LabLaunch& l) { return static_cast<cudaStream_t>(l.stream); }

// One item per thread: ceil(items / threads) blocks, at least one.
inline std::int64_t blocks_for(std::int64_t items, std::int64_t threads) {
  return std::max<std::int64_t>(1, (items + threads - 1) / threads);
}

// Validates the setup's block for `kernel` (a usage Error naming the limit it breaks) and returns its occupancy.
template <class Kernel>
OccupancyReport occupancy_for(Kernel* kernel, const char* name, const CudaSetup& setup, std::size_t dynamic_shared = 0) {
  ks::cuda::KernelLaunchShape shape;
  shape.func = reinterpret_cast<const void*>(kernel);
  shape.name = name;
  shape.block = dim3(unsigned(setup.block.x), unsigned(setup.block.y), 1);
  shape.dynamic_shared = dynamic_shared;
  return ks::cuda::occupancy_of(*setup.device, shape);
}

// A grid that fills the device once (every SM its resident blocks), for grid-stride loops; never more blocks
// than there are items for.
inline std::int64_t device_filling_grid(const OccupancyReport& occ, const DeviceInfo& device, std::int64_t items,
                                        std::int64_t threads) {
  const std::int64_t resident = std::int64_t(std::max(1, occ.active_blocks_per_sm)) * std::max(1, device.sm_count);
  return std::min(resident, blocks_for(items, threads));
}

}  // namespace ks::lab::cuda
