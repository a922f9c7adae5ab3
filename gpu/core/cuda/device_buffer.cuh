#pragma once
// RAII owner of a linear device allocation. Move-only. An allocation failure is an OutOfMemory error that says
// how much was asked for and how much is free, which is what a user needs to act on it.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <utility>

#include "core/cuda/check.cuh"

namespace ks::cuda {

inline void check_allocation(cudaError_t status, std::size_t bytes, const char* what) {
  if (status == cudaSuccess) return;
  cudaGetLastError();
  if (status != cudaErrorMemoryAllocation) check(status, what);
  std::size_t free_bytes = 0, total = 0;
  cudaMemGetInfo(&free_bytes, &total);
  char msg[200];
  std::snprintf(msg, sizeof msg, "the GPU could not allocate %.1f MB for %s (%.1f MB free of %.1f MB)",
                double(bytes) / 1e6, what, double(free_bytes) / 1e6, double(total) / 1e6);
  throw Error(ErrorKind::OutOfMemory, msg, "use a smaller image, or --backend cpu");
}

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes, const char* what = "a device buffer") : bytes_(bytes) {
    if (bytes) check_allocation(cudaMalloc(&ptr_, bytes), bytes, what);
  }
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

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

// A device copy of a small host array (filter weights), complete when this returns: kernels go to the context's
// non-blocking stream, which does not wait for the legacy default stream, and a cudaMemcpy from pageable memory
// may return before its DMA has landed. (Without the wait, a kernel under load once read zero weights.)
template <class T>
DeviceBuffer upload_array(const T* data, std::size_t count, const char* what) {
  DeviceBuffer b(count * sizeof(T), what);
  if (count) {
    check(cudaMemcpy(b.get(), data, count * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy (weights)");
    check(cudaStreamSynchronize(cudaStreamLegacy), "waiting for the weights upload");
  }
  return b;
}

}  // namespace ks::cuda
