#pragma once
// RAII owner of page-locked host memory. Copies between it and the device are DMA'd directly (pageable memory
// goes through the driver's staging buffer, one synchronous copy after another) and may be asynchronous.
// Move-only.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>

#include "core/cuda/check.cuh"

namespace ks::cuda {

// A failed host allocation (`call`: "cudaMallocHost", ...) as an OutOfMemory error that says how much was asked
// for; `hint` says what to do. Other failures as check() reports them.
inline void check_host_allocation(cudaError_t status, std::size_t bytes, const std::string& what, const char* call,
                                  const char* hint) {
  if (status == cudaSuccess) return;
  cudaGetLastError();
  if (status != cudaErrorMemoryAllocation) check(status, call);
  char msg[200];
  std::snprintf(msg, sizeof msg, "could not allocate %.1f MB of %s host memory for %s", double(bytes) / 1e6, call,
                what.c_str());
  throw Error(ErrorKind::OutOfMemory, msg, hint);
}

class PinnedHostBuffer {
 public:
  PinnedHostBuffer() = default;
  PinnedHostBuffer(std::size_t bytes, const char* what) : bytes_(bytes) {
    if (bytes)
      check_host_allocation(cudaMallocHost(&ptr_, bytes), bytes, what, "cudaMallocHost",
                            "close programs that hold much memory, or use fewer threads or GPUs");
  }
  ~PinnedHostBuffer() {
    if (ptr_) cudaFreeHost(ptr_);
  }
  PinnedHostBuffer(PinnedHostBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  PinnedHostBuffer& operator=(PinnedHostBuffer&& o) noexcept {
    if (this != &o) {
      if (ptr_) cudaFreeHost(ptr_);
      ptr_ = std::exchange(o.ptr_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  PinnedHostBuffer(const PinnedHostBuffer&) = delete;
  PinnedHostBuffer& operator=(const PinnedHostBuffer&) = delete;

  void* get() const noexcept { return ptr_; }
  template <class T>
  T* as() const noexcept {
    return static_cast<T*>(ptr_);
  }
  std::size_t bytes() const noexcept { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace ks::cuda
