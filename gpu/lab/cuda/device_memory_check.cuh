#pragma once
// A lab run says what it needs before it allocates: "sorting 268435456 pairs on the GPU needs 6442.5 MB of
// device memory; 1024.0 MB of 81559.0 MB are free", rather than failing on the third of five allocations.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>

#include "core/cuda/check.cuh"

namespace ks::lab::cuda {

// Throws an OutOfMemory Error when `need` bytes exceed the device's free memory; `what` completes
// "<what> needs ... MB of device memory".
inline void check_free_device_memory(std::size_t need, const char* what, const char* hint) {
  std::size_t free_bytes = 0, total = 0;
  ks::cuda::check(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo");
  if (need <= free_bytes) return;
  char msg[256];  // snprintf: nvcc cannot check fmt's compile-time format strings
  std::snprintf(msg, sizeof msg, "%s needs %.1f MB of device memory; %.1f MB of %.1f MB are free", what,
                double(need) / 1e6, double(free_bytes) / 1e6, double(total) / 1e6);
  throw Error(ErrorKind::OutOfMemory, msg, hint);
}

}  // namespace ks::lab::cuda
