#include "sim/sim_kernel_resources.hpp"

namespace ks {

std::optional<KernelResources> sim_kernel_resources(const std::string& kernel_id, const std::string& variant,
                                                    const LaunchGeometry& geometry) {
  // ptxas -v, sm_90, CUDA 13.0.88, of sim/cuda/life_naive.cu, life_tiled.cu, field_naive.cu, field_strip.cu.
  // Life's kernels have a torus and a dead-border instance; the larger count of the two is kept (naive 32 and
  // 30, tiled 28 both): within a register allocation unit of each other, the occupancy is the same.
  struct Count {
    const char* kernel;
    const char* variant;
    int registers;
  };
  static constexpr Count kCounts[] = {{"life", "naive", 32},      {"life", "tiled", 28},
                                      {"heat", "naive", 24},      {"heat", "strip", 44},
                                      {"grayscott", "naive", 32}, {"grayscott", "strip", 64}};
  for (const Count& c : kCounts) {
    if (kernel_id != c.kernel || variant != c.variant) continue;
    KernelResources r;
    r.kernel_name = kernel_id + "_" + variant;
    r.registers_per_thread = c.registers;
    // Life tiled: one byte per cell of the (bx + 2) x (by + 2) tile.
    if (geometry.shared_tile)
      r.shared_bytes = std::size_t(geometry.tile_width()) * std::size_t(geometry.tile_height());
    return r;
  }
  return std::nullopt;
}

}  // namespace ks
