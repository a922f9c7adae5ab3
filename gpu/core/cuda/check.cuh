#pragma once
// Turns CUDA return codes into ks::Error: which call failed, CUDA's own words, and what to do about it.
#include <cuda_runtime.h>

#include <string>

#include "core/error.hpp"

namespace ks::cuda {

inline void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so that the context stays usable where it can
  const std::string msg = std::string(what) + " failed: " + cudaGetErrorString(status);
  if (status == cudaErrorMemoryAllocation)
    throw Error(ErrorKind::OutOfMemory, msg, "use a smaller image, or --backend cpu");
  throw Error(ErrorKind::Device, msg,
              "check the GPU with `kernelscope-cli info` (or nvidia-smi), or use --backend cpu");
}

// After a launch: configuration errors show at once, faults at the next synchronisation.
inline void check_launch(const std::string& kernel) { check(cudaGetLastError(), ("launch of " + kernel).c_str()); }

}  // namespace ks::cuda
