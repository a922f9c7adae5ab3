#pragma once
// Launch validation and theoretical occupancy for one kernel at one block shape, against this device.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "core/device_info.hpp"
#include "core/occupancy.hpp"

namespace ks::cuda {

struct KernelLaunchShape {
  const void* func = nullptr;  // the __global__ function
  std::string name;            // how reports name it
  dim3 block{1, 1, 1};
  std::size_t dynamic_shared = 0;
};

// Throws a usage Error naming the limit the block breaks: threads per block, a block dimension, the kernel's
// register-limited thread count, or shared memory. Raises the kernel's dynamic shared memory limit when more
// than the default 48 KB is needed and the device allows it.
void validate_launch(const DeviceInfo& device, const KernelLaunchShape& launch);

// Registers, shared memory, active blocks per SM, occupancy and which resource binds.
OccupancyReport occupancy_of(const DeviceInfo& device, const KernelLaunchShape& launch);

}  // namespace ks::cuda
