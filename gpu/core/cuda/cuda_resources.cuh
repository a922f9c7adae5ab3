#pragma once
// RAII owners of CUDA resources: device memory (linear and pitched) and events. Move-only.
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include <cstdio>

#include "core/cuda/cuda_check.cuh"

namespace ks::cuda {

// Says how much was asked and how much is free, which is what a user needs to act on an allocation failure.
inline void check_allocation(cudaError_t status, std::size_t bytes) {
  if (status == cudaSuccess) return;
  cudaGetLastError();
  std::size_t free_bytes = 0, total = 0;
  cudaMemGetInfo(&free_bytes, &total);
  char msg[160];
  std::snprintf(msg, sizeof msg, "the GPU could not allocate %.1f MB (%.1f MB free of %.1f MB)", bytes / 1e6,
                free_bytes / 1e6, total / 1e6);
  throw Error(ErrorKind::OutOfMemory, msg, "use a smaller image, or --backend cpu");
}

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes) check_allocation(cudaMalloc(&ptr_, bytes), bytes);
  }
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(o.bytes_) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
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

// Rows padded to the device's preferred alignment (cudaMallocPitch), so row starts suit vector loads.
class PitchedBuffer {
 public:
  PitchedBuffer(std::size_t row_bytes, std::size_t rows) : row_bytes_(row_bytes), rows_(rows) {
    check_allocation(cudaMallocPitch(&ptr_, &pitch_, row_bytes, rows), row_bytes * rows);
  }
  ~PitchedBuffer() {
    if (ptr_) cudaFree(ptr_);
  }
  PitchedBuffer(const PitchedBuffer&) = delete;
  PitchedBuffer& operator=(const PitchedBuffer&) = delete;
  void* get() const noexcept { return ptr_; }
  std::size_t pitch() const noexcept { return pitch_; }
  std::size_t row_bytes() const noexcept { return row_bytes_; }
  std::size_t rows() const noexcept { return rows_; }

 private:
  void* ptr_ = nullptr;
  std::size_t pitch_ = 0;
  std::size_t row_bytes_ = 0;
  std::size_t rows_ = 0;
};

class Event {
 public:
  Event() { check(cudaEventCreate(&event_), "cudaEventCreate"); }
  ~Event() { cudaEventDestroy(event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record(cudaStream_t s) { check(cudaEventRecord(event_, s), "cudaEventRecord"); }
  cudaEvent_t get() const noexcept { return event_; }
  // Milliseconds from `start` to this event; waits for this event.
  float since(const Event& start) const {
    check(cudaEventSynchronize(event_), "cudaEventSynchronize (a kernel may have failed)");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start.event_, event_), "cudaEventElapsedTime");
    return ms;
  }

 private:
  cudaEvent_t event_{};
};

}  // namespace ks::cuda
