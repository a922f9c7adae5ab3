#pragma once
// GPU memory taken away on purpose, for tests of what happens when a run does not fit (tests/gpu_memory: they
// run alone, RUN_SERIAL). Only with the CUDA backend.
#ifdef KS_HAVE_CUDA
#include <cuda_runtime.h>

#include <cstddef>

namespace ks {

// Holds all but `leave` bytes of the GPU's free memory until destroyed.
class MemoryBallast {
 public:
  explicit MemoryBallast(std::size_t leave) {
    std::size_t free_bytes = 0, total = 0;
    if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess || free_bytes <= leave) return;
    // One large block can fail on fragmentation; shrink until it fits.
    for (std::size_t want = free_bytes - leave; want > leave && !ptr_; want -= want / 16)
      if (cudaMalloc(&ptr_, want) != cudaSuccess) {
        cudaGetLastError();
        ptr_ = nullptr;
      }
  }
  ~MemoryBallast() {
    if (ptr_) cudaFree(ptr_);
  }
  MemoryBallast(const MemoryBallast&) = delete;
  MemoryBallast& operator=(const MemoryBallast&) = delete;
  bool holds() const { return ptr_ != nullptr; }

 private:
  void* ptr_ = nullptr;
};

inline std::size_t free_device_memory() {
  std::size_t free_bytes = 0, total = 0;
  cudaMemGetInfo(&free_bytes, &total);
  return free_bytes;
}

}  // namespace ks
#endif
