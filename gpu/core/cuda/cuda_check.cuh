#pragma once
// Turns CUDA return codes into ks::Error: which call failed, CUDA's own words, and what to do.
#include <cuda_runtime.h>

#include <string>

#include "core/error.hpp"

namespace ks::cuda {

inline void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear the sticky-free error so the context stays usable where it can
  const std::string msg = std::string(what) + " failed: " + cudaGetErrorString(status);
  if (status == cudaErrorMemoryAllocation)
    throw Error(ErrorKind::OutOfMemory, msg, "use a smaller image, or --backend cpu");
  throw Error(ErrorKind::Device, msg, "check the GPU with `kernelscope-cli info`, or use --backend cpu");
}

// After a launch: configuration errors show at once, faults at the next synchronisation.
inline void check_launch(const char* kernel) { check(cudaGetLastError(), kernel); }

}  // namespace ks::cuda
