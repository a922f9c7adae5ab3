#include "core/cuda/launch_check.cuh"

#include <cstdio>

#include "core/cuda/check.cuh"

namespace ks::cuda {

namespace {

std::string block_text(const dim3& b) { return std::to_string(b.x) + "x" + std::to_string(b.y); }

std::string kb(std::size_t bytes) {
  char s[32];
  std::snprintf(s, sizeof s, bytes % 1024 ? "%.1f KB" : "%.0f KB", double(bytes) / 1024.0);
  return s;
}

}  // namespace

void validate_launch(const DeviceInfo& d, const KernelLaunchShape& l) {
  const long long threads = 1LL * l.block.x * l.block.y * l.block.z;
  const std::string b = block_text(l.block);
  if (threads <= 0) throw_usage("block " + b + " has no threads", "both sides must be at least 1, e.g. 32x8");
  if (threads > d.max_threads_per_block)
    throw_usage("block " + b + " = " + std::to_string(threads) + " threads exceeds this GPU's " +
                    std::to_string(d.max_threads_per_block) + " threads per block",
                "use at most " + std::to_string(d.max_threads_per_block) + " threads, e.g. 32x8 or 16x16");
  if (int(l.block.x) > d.max_block_dim_x)
    throw_usage("block width " + std::to_string(l.block.x) + " exceeds this GPU's limit of " +
                    std::to_string(d.max_block_dim_x) + " threads in x",
                "use a narrower block, e.g. 32x8");
  if (int(l.block.y) > d.max_block_dim_y)
    throw_usage("block height " + std::to_string(l.block.y) + " exceeds this GPU's limit of " +
                    std::to_string(d.max_block_dim_y) + " threads in y",
                "use a flatter block, e.g. 32x8");
  cudaFuncAttributes attr{};
  check(cudaFuncGetAttributes(&attr, l.func), "cudaFuncGetAttributes");
  if (threads > attr.maxThreadsPerBlock)
    throw_usage("block " + b + " = " + std::to_string(threads) + " threads: kernel " + l.name + " uses " +
                    std::to_string(attr.numRegs) + " registers per thread, so this GPU runs at most " +
                    std::to_string(attr.maxThreadsPerBlock) + " of its threads per block",
                "use a block of at most " + std::to_string(attr.maxThreadsPerBlock) + " threads");
  const std::size_t total = attr.sharedSizeBytes + l.dynamic_shared;
  if (total > d.shared_memory_per_block_optin)
    throw_usage("block " + b + ": kernel " + l.name + " needs " + kb(total) + " of shared memory, this GPU allows " +
                    kb(d.shared_memory_per_block_optin) + " per block",
                "use a smaller block or radius, or the naive variant (it uses no shared memory)");
  if (l.dynamic_shared > 48 * 1024)
    check(cudaFuncSetAttribute(l.func, cudaFuncAttributeMaxDynamicSharedMemorySize, int(l.dynamic_shared)),
          "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
}

}  // namespace ks::cuda
