#pragma once
// Launch validation and theoretical occupancy of one kernel at one block shape, on this device.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "core/device_info.hpp"
#include "core/occupancy.hpp"

namespace ks::cuda {

struct KernelLaunchShape {
  const void* func = nullptr;  // the __global__ function
  std::string name;            // how reports and errors name it
  dim3 block{1, 1, 1};
  std::size_t dynamic_shared = 0;
};

// Throws a usage Error naming the limit the block breaks: no threads, threads per block, a block dimension,
// the kernel's register-limited thread count, or shared memory. Raises the kernel's dynamic shared memory limit
// when it needs more than the default 48 KB and the device allows it (so call it before launching).
void validate_launch(const DeviceInfo& device, const KernelLaunchShape& launch);

// Validates, then: registers, shared memory, active blocks per SM, occupancy, and which resource binds.
OccupancyReport occupancy_of(const DeviceInfo& device, const KernelLaunchShape& launch);

}  // namespace ks::cuda
