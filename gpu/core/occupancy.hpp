#pragma once
// Theoretical occupancy of a launch and which resource limits it.
#include <cstddef>
#include <string>

namespace ks {

struct OccupancyReport {
  std::string kernel_name;        // the CUDA kernel measured (the main pass of a multi-pass variant)
  int block_threads = 0;
  int registers_per_thread = 0;
  std::size_t static_shared_bytes = 0;
  std::size_t dynamic_shared_bytes = 0;
  int active_blocks_per_sm = 0;   // cudaOccupancyMaxActiveBlocksPerMultiprocessor
  double occupancy = 0;           // active warps / the SM's maximum warps, 0..1
  std::string limiter;            // "warps", "registers", "shared memory" or "blocks per SM"
};

}  // namespace ks
