#pragma once
// RAII owner of page-locked host memory. Copies between it and the device are DMA'd directly (pageable memory
// goes through the driver's staging buffer, one synchronous copy after another) and may be asynchronous.
// Move-only.
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "core/cuda/check.cuh"

namespace ks::cuda {

class PinnedHostBuffer {
 public:
  PinnedHostBuffer() = default;
  PinnedHostBuffer(std::size_t bytes, const char* what) : bytes_(bytes) {
    if (bytes) check(cudaMallocHost(&ptr_, bytes), what);
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
