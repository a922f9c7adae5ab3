#include "core/cuda/check.cuh"
#include "core/cuda/launch_check.cuh"
#include "core/occupancy_model.hpp"

namespace ks::cuda {

OccupancyReport occupancy_of(const DeviceInfo& d, const KernelLaunchShape& l) {
  validate_launch(d, l);
  cudaFuncAttributes attr{};
  check(cudaFuncGetAttributes(&attr, l.func), "cudaFuncGetAttributes");
  OccupancyReport r;
  r.kernel_name = l.name;
  r.block_threads = int(l.block.x * l.block.y * l.block.z);
  r.registers_per_thread = attr.numRegs;
  r.static_shared_bytes = attr.sharedSizeBytes;
  r.dynamic_shared_bytes = l.dynamic_shared;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r.active_blocks_per_sm, l.func, r.block_threads,
                                                      l.dynamic_shared),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  // The runtime's answer counts; the limiter comes from the same arithmetic the device models use.
  const OccupancyLimits limits = occupancy_limits(
      d, {r.block_threads, attr.numRegs, std::size_t(attr.sharedSizeBytes) + l.dynamic_shared});
  r.occupancy = double(r.active_blocks_per_sm * limits.warps_per_block) / double(limits.max_warps);
  r.limiter = limits.limiter;
  return r;
}

}  // namespace ks::cuda
