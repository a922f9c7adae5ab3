#pragma once
// CUDA events (RAII) and a start/stop pair that times the work enqueued between them on one stream. Device
// time, not host time: launches are asynchronous, so a host clock would measure the enqueueing.
#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "core/cuda/check.cuh"
#include "core/timing.hpp"

namespace ks::cuda {

class Event {
 public:
  // flags: cudaEventBlockingSync makes a thread waiting on it sleep rather than spin (cudaEventDefault: spin).
  explicit Event(unsigned flags = cudaEventDefault) {
    check(cudaEventCreateWithFlags(&event_, flags), "cudaEventCreateWithFlags");
  }
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

// The median time of `timed` copies of `bytes` on `stream`, each between events, after `warmup` untimed ones
// (the first copies pay for clocks ramping up and TLB misses): what the bandwidth figures are made of.
inline double median_copy_ms(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                             cudaStream_t stream, int warmup, int timed) {
  EventTimer timer(stream);
  std::vector<double> samples;
  for (int i = 0; i < warmup + timed; ++i) {
    timer.start();
    check(cudaMemcpyAsync(dst, src, bytes, kind, stream), "cudaMemcpyAsync");
    timer.stop();
    const double ms = timer.elapsed_ms();
    if (i >= warmup) samples.push_back(ms);
  }
  return TimingStats::of(samples).median_ms;
}

}  // namespace ks::cuda
