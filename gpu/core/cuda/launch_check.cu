#include "core/cuda/launch_check.cuh"

#include <algorithm>
#include <climits>
#include <cstdio>

#include "core/cuda/cuda_check.cuh"

namespace ks::cuda {

namespace {

std::string block_text(const dim3& b) { return std::to_string(b.x) + "x" + std::to_string(b.y); }

std::string kb(std::size_t bytes) {
  char s[32];
  std::snprintf(s, sizeof s, "%.1f KB", bytes / 1024.0);
  return s;
}

}  // namespace

void validate_launch(const DeviceInfo& d, const KernelLaunchShape& l) {
  const int threads = int(l.block.x * l.block.y * l.block.z);
  const std::string b = block_text(l.block);
  if (threads <= 0) throw_usage("block " + b + " has no threads", "both sides must be at least 1, e.g. 32x8");
  if (threads > d.max_threads_per_block)
    throw_usage("block " + b + " = " + std::to_string(threads) + " threads exceeds this GPU's " +
                    std::to_string(d.max_threads_per_block) + " threads per block",
                "use a smaller block, e.g. 32x8 or 16x16");
  if (int(l.block.x) > d.max_block_dim_x)
    throw_usage("block width " + std::to_string(l.block.x) + " exceeds this GPU's limit of " +
                std::to_string(d.max_block_dim_x) + " threads in x");
  if (int(l.block.y) > d.max_block_dim_y)
    throw_usage("block height " + std::to_string(l.block.y) + " exceeds this GPU's limit of " +
                std::to_string(d.max_block_dim_y) + " threads in y");
  cudaFuncAttributes attr{};
  check(cudaFuncGetAttributes(&attr, l.func), "cudaFuncGetAttributes");
  if (threads > attr.maxThreadsPerBlock)
    throw_usage("block " + b + " = " + std::to_string(threads) + " threads: kernel " + l.name + " uses " +
                    std::to_string(attr.numRegs) + " registers per thread, so it runs at most " +
                    std::to_string(attr.maxThreadsPerBlock) + " threads per block here",
                "use a smaller block");
  const std::size_t total = attr.sharedSizeBytes + l.dynamic_shared;
  if (total > d.shared_memory_per_block_optin)
    throw_usage("block " + b + ": kernel " + l.name + " needs " + kb(total) +
                    " of shared memory, this GPU allows " + kb(d.shared_memory_per_block_optin) + " per block",
                "use a smaller block or radius, or the naive variant");
  if (l.dynamic_shared > 48 * 1024)
    check(cudaFuncSetAttribute(l.func, cudaFuncAttributeMaxDynamicSharedMemorySize, int(l.dynamic_shared)),
          "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
}

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
  const int warps_per_block = (r.block_threads + d.warp_size - 1) / d.warp_size;
  const int max_warps = d.max_threads_per_sm / d.warp_size;
  r.occupancy = double(r.active_blocks_per_sm * warps_per_block) / double(max_warps);

  // Which resource gives the smallest number of resident blocks (the runtime's own answer is active_blocks).
  const int by_warps = max_warps / warps_per_block;
  const int regs_per_warp = ((attr.numRegs * d.warp_size + 255) / 256) * 256;  // allocated per warp, 256 at a time
  const int by_registers = attr.numRegs ? d.registers_per_sm / (regs_per_warp * warps_per_block) : INT_MAX;
  const std::size_t smem = attr.sharedSizeBytes + l.dynamic_shared;
  const std::size_t reserved = d.cc_major >= 8 ? 1024 : 0;  // per-block system reservation since Ampere
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
