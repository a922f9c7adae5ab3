#include <algorithm>
#include <climits>

#include "core/cuda/check.cuh"
#include "core/cuda/launch_check.cuh"

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
  const int warp = std::max(1, d.warp_size);
  const int warps_per_block = (r.block_threads + warp - 1) / warp;
  const int max_warps = std::max(1, d.max_threads_per_sm / warp);
  r.occupancy = double(r.active_blocks_per_sm * warps_per_block) / double(max_warps);

  // The resident-block limit each resource sets on its own; the smallest one binds (the runtime's answer,
  // active_blocks_per_sm, is the minimum of these).
  const int by_warps = max_warps / warps_per_block;
  // Registers go to warps in units of 256 (8 per thread), and each of the SM's 4 sub-partitions holds its own
  // quarter of the register file: a warp's registers cannot straddle two of them.
  const int regs_per_warp = ((attr.numRegs * warp + 255) / 256) * 256;
  int by_registers = INT_MAX;
  if (regs_per_warp > 0) {
    const int warps_by_registers = 4 * ((d.registers_per_sm / 4) / regs_per_warp);
    by_registers = warps_by_registers / warps_per_block;
  }
  const std::size_t smem = attr.sharedSizeBytes + l.dynamic_shared;
  const std::size_t reserved = d.cc_major >= 8 ? 1024 : 0;  // per-block shared memory the system keeps (sm_80+)
  const int by_shared = smem ? int(d.shared_memory_per_sm / (smem + reserved)) : INT_MAX;
  const int by_blocks = d.max_blocks_per_sm;
  const int least = std::min({by_warps, by_registers, by_shared, by_blocks});
  r.limiter = least == by_warps       ? "warps"
              : least == by_registers ? "registers"
              : least == by_shared    ? "shared memory"
                                      : "blocks per SM";
  return r;
}

}  // namespace ks::cuda
