#pragma once
// RAII owner of a pitched 2-D device allocation (cudaMallocPitch): every row starts on the device's preferred
// alignment, so the kernels can read and write rows with 16-byte vector accesses. Move-only.
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "core/cuda/device_buffer.cuh"

namespace ks::cuda {

class DeviceImage {
 public:
  DeviceImage(std::size_t row_bytes, std::size_t rows) : row_bytes_(row_bytes), rows_(rows) {
    check_allocation(cudaMallocPitch(&ptr_, &pitch_, row_bytes, rows), row_bytes * rows, "an image");
  }
  ~DeviceImage() {
    if (ptr_) cudaFree(ptr_);
  }
  DeviceImage(DeviceImage&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), pitch_(o.pitch_), row_bytes_(o.row_bytes_), rows_(o.rows_) {}
  DeviceImage& operator=(DeviceImage&&) = delete;
  DeviceImage(const DeviceImage&) = delete;
  DeviceImage& operator=(const DeviceImage&) = delete;

  unsigned char* data() const noexcept { return static_cast<unsigned char*>(ptr_); }
  std::size_t pitch() const noexcept { return pitch_; }  // bytes between row starts, >= row_bytes
  std::size_t row_bytes() const noexcept { return row_bytes_; }
  std::size_t rows() const noexcept { return rows_; }

 private:
  void* ptr_ = nullptr;
  std::size_t pitch_ = 0;
  std::size_t row_bytes_ = 0;
  std::size_t rows_ = 0;
};

}  // namespace ks::cuda
