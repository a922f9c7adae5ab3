#pragma once
// Empties the L2 cache of what earlier launches left in it before a counter reading, as Nsight Compute does
// before each profiled pass by default (--cache-control all). Without it the write-backs of the previous launch's
// dirty lines land in the launch being measured: a short kernel that follows its own timed launches then shows
// DRAM traffic and throughput that belong to them (docs/PERF.md, "Counters against Nsight Compute").
// It reads a scratch buffer of several L2 sizes, which evicts every line (writing back the dirty ones) and leaves
// the L2 holding clean lines the measured kernel never touches.
#include <cstddef>

#include "core/cuda/device_buffer.cuh"

namespace ks {

class L2Flush {
 public:
  // Scratch of 4x `l2_bytes`, or less where device memory is short (a quarter of what is free); none (and
  // run() does nothing) where even that fails.
  explicit L2Flush(std::size_t l2_bytes);
  // Reads the scratch on `stream` and waits for it.
  void run(cudaStream_t stream);

 private:
  cuda::DeviceBuffer scratch_;
  cuda::DeviceBuffer sink_;  // where the read values would go, so that the reads are not optimised away
};

}  // namespace ks
