#include "core/occupancy_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>

namespace ks {

OccupancyLimits occupancy_limits(const DeviceInfo& d, const BlockResources& b) {
  OccupancyLimits r;
  const int warp = std::max(1, d.warp_size);
  r.warps_per_block = std::max(1, (b.threads + warp - 1) / warp);
  r.max_warps = std::max(1, d.max_threads_per_sm / warp);
  r.by_warps = r.max_warps / r.warps_per_block;
  const int regs_per_warp = ((b.registers_per_thread * warp + 255) / 256) * 256;
  r.by_registers = INT_MAX;
  if (regs_per_warp > 0) {
    const int warps_by_registers = 4 * ((d.registers_per_sm / 4) / regs_per_warp);
    r.by_registers = warps_by_registers / r.warps_per_block;
  }
  const std::size_t reserved =
      d.cc_major >= 8 ? 1024 : 0;  // per-block shared memory the system keeps (sm_80+)
  r.by_shared = b.shared_bytes ? int(d.shared_memory_per_sm / (b.shared_bytes + reserved)) : INT_MAX;
  r.by_blocks = d.max_blocks_per_sm;
  r.active_blocks = std::max(0, std::min({r.by_warps, r.by_registers, r.by_shared, r.by_blocks}));
  r.occupancy = double(r.active_blocks * r.warps_per_block) / double(r.max_warps);
  r.limiter = r.active_blocks == r.by_warps       ? "warps"
              : r.active_blocks == r.by_registers ? "registers"
              : r.active_blocks == r.by_shared    ? "shared memory"
                                                  : "blocks per SM";
  return r;
}

std::string block_problem(const DeviceInfo& d, int block_x, int block_y, const BlockResources& b) {
  if (block_x < 1 || block_y < 1) return "a block needs at least one thread";
  if (block_x > d.max_block_dim_x || block_y > d.max_block_dim_y)
    return fmt::format("a block is at most {} x {} threads wide and tall", d.max_block_dim_x,
                       d.max_block_dim_y);
  if (b.threads > d.max_threads_per_block)
    return fmt::format("{} threads per block at most ({} asked)", d.max_threads_per_block, b.threads);
  if (static_cast<long long>(b.registers_per_thread) * b.threads > d.registers_per_block)
    return fmt::format("{} registers per block at most ({} threads x {} registers)", d.registers_per_block,
                       b.threads, b.registers_per_thread);
  const std::size_t shared_limit = std::max(d.shared_memory_per_block, d.shared_memory_per_block_optin);
  if (b.shared_bytes > shared_limit)
    return fmt::format("{} bytes of shared memory per block at most ({} asked)", shared_limit,
                       b.shared_bytes);
  return {};
}

}  // namespace ks
