#pragma once
// CUDA events (RAII) and a start/stop pair that times the work enqueued between them on one stream. Device
// time, not host time: launches are asynchronous, so a host clock would measure the enqueueing.
#include <cuda_runtime.h>

#include "core/cuda/check.cuh"

namespace ks::cuda {

class Event {
 public:
  Event() { check(cudaEventCreate(&event_), "cudaEventCreate"); }
  ~Event() { cudaEventDestroy(event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  void record(cudaStream_t s) { check(cudaEventRecord(event_, s), "cudaEventRecord"); }
  cudaEvent_t get() const noexcept { return event_; }

 private:
  cudaEvent_t event_{};
};

class EventTimer {
 public:
  explicit EventTimer(cudaStream_t stream) : stream_(stream) {}
  void start() { start_.record(stream_); }
  void stop() { stop_.record(stream_); }
  // Milliseconds between start() and stop(); waits for stop(). A kernel fault shows up here.
  double elapsed_ms() {
    check(cudaEventSynchronize(stop_.get()), "waiting for the GPU (a kernel or copy failed)");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start_.get(), stop_.get()), "cudaEventElapsedTime");
    return double(ms);
  }

 private:
  cudaStream_t stream_;
  Event start_, stop_;
};

}  // namespace ks::cuda
