#pragma once
// Theoretical occupancy as arithmetic on a device's published limits, without CUDA: what
// cudaOccupancyMaxActiveBlocksPerMultiprocessor answers on a real GPU, worked out from the limits so that a
// device model (core/device_models.hpp) gives the same report on a machine without one. The CUDA occupancy
// report (core/cuda/occupancy_report.cu) names its binding limit with this same arithmetic.
#include <cstddef>
#include <string>

#include "core/device_info.hpp"

namespace ks {

// What one block of a kernel asks of an SM.
struct BlockResources {
  int threads = 0;
  int registers_per_thread = 0;
  std::size_t shared_bytes = 0;  // static + dynamic
};

// The resident blocks per SM each resource allows on its own; the smallest binds.
struct OccupancyLimits {
  int by_warps = 0;
  int by_registers = 0;   // INT_MAX when the kernel uses no registers (never: kept for completeness)
  int by_shared = 0;      // INT_MAX when the block uses no shared memory
  int by_blocks = 0;      // the SM's resident-block limit
  int active_blocks = 0;  // the smallest of the four
  int warps_per_block = 0;
  int max_warps = 0;     // per SM
  double occupancy = 0;  // active warps / max warps, 0..1
  std::string limiter;   // "warps", "registers", "shared memory" or "blocks per SM"
};

// Registers go to warps in units of 256, and each of the SM's 4 sub-partitions holds its own quarter of the
// register file (a warp's registers cannot straddle two); sm_80 and later keep 1 KB of shared memory per
// block.
OccupancyLimits occupancy_limits(const DeviceInfo& device, const BlockResources& block);

// Empty when the device can launch such a block; otherwise the limit it breaks, in words ("1024 threads per
// block at most", ...): what validate_launch refuses on a real GPU, for a device model.
std::string block_problem(const DeviceInfo& device, int block_x, int block_y, const BlockResources& block);

}  // namespace ks
