#pragma once
// RAII owner of a CUDA stream. Non-blocking: it does not synchronise with the legacy default stream, so work
// of other libraries on stream 0 cannot stall the timed launches.
#include <cuda_runtime.h>

#include <utility>

#include "core/cuda/check.cuh"

namespace ks::cuda {

class Stream {
 public:
  Stream() { check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags"); }
  ~Stream() {
    if (stream_) cudaStreamDestroy(stream_);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  cudaStream_t get() const noexcept { return stream_; }
  // Hands ownership to the caller (CudaContext keeps the handle behind an opaque pointer).
  cudaStream_t release() noexcept { return std::exchange(stream_, nullptr); }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace ks::cuda
