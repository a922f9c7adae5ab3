#pragma once
// One lab array in one host memory mode: the host pointer the CPU fills and reads, and the pointer kernels use
// (a device copy, the mapped alias of the host memory, or the managed allocation itself). RAII, move-only.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>

#include "core/cuda/check.cuh"
#include "core/cuda/device_buffer.cuh"
#include "lab/host_mode.hpp"

namespace ks::lab::cuda {

class ModeBuffer {
 public:
  ModeBuffer() = default;
  // `borrowed_host`: pageable mode may upload straight from memory the caller owns (the filled inputs).
  ModeBuffer(HostMode mode, std::size_t bytes, const std::string& what, void* borrowed_host = nullptr);
  ~ModeBuffer() { release(); }
  ModeBuffer(ModeBuffer&& o) noexcept { swap(o); }
  ModeBuffer& operator=(ModeBuffer&& o) noexcept {
    swap(o);
    return *this;
  }
  ModeBuffer(const ModeBuffer&) = delete;
  ModeBuffer& operator=(const ModeBuffer&) = delete;

  void* host() const noexcept { return host_; }
  void* device() const noexcept { return device_; }
  std::size_t bytes() const noexcept { return bytes_; }
  HostMode mode() const noexcept { return mode_; }
  // Whether host and device are separate memory that copies connect (pageable, pinned).
  bool has_device_copy() const noexcept { return mode_ == HostMode::Pageable || mode_ == HostMode::Pinned; }

 private:
  void allocate(const std::string& what, void* borrowed_host);
  void release() noexcept;
  void swap(ModeBuffer& o) noexcept {
    std::swap(mode_, o.mode_);
    std::swap(bytes_, o.bytes_);
    std::swap(host_, o.host_);
    std::swap(device_, o.device_);
    std::swap(owns_host_, o.owns_host_);
  }
  HostMode mode_ = HostMode::Pageable;
  std::size_t bytes_ = 0;
  void* host_ = nullptr;
  void* device_ = nullptr;
  bool owns_host_ = false;
};

}  // namespace ks::lab::cuda
