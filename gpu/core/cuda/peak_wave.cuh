#pragma once
// How the roofline's compute ceilings are timed on the GPU (fma_peak.cu, op_peaks.cu): a grid of exactly the
// blocks that fit on every SM at once, so all SMs work for the whole launch and none runs a tail wave; a few
// warm-up launches (the clocks ramp up), then the median of the timed ones.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "core/cuda/check.cuh"
#include "core/cuda/event_timer.cuh"
#include "core/timing.hpp"

namespace ks::cuda {

struct PeakWave {
  int blocks = 0;
  std::size_t threads = 0;  // blocks x block size
};

// The full wave of `kernel` at `block_threads` threads per block on `sm_count` SMs.
template <class Kernel>
PeakWave full_wave(Kernel kernel, int block_threads, int sm_count) {
  int blocks_per_sm = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, block_threads, 0),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  PeakWave w;
  w.blocks = std::max(1, blocks_per_sm) * std::max(1, sm_count);
  w.threads = std::size_t(w.blocks) * std::size_t(block_threads);
  return w;
}

// The median time in ms of `launch(stream)` (which launches one peak kernel) over 10 launches after 3.
template <class Launch>
double median_launch_ms(cudaStream_t stream, Launch&& launch) {
  EventTimer timer(stream);
  std::vector<double> samples;
  constexpr int warmup = 3, timed = 10;  // the first launches pay for clocks ramping up
  for (int i = 0; i < warmup + timed; ++i) {
    timer.start();
    launch(stream);
    check(cudaGetLastError(), "launching a peak kernel");
    timer.stop();
    const double ms = timer.elapsed_ms();
    if (i >= warmup) samples.push_back(ms);
  }
  return TimingStats::of(samples).median_ms;
}

}  // namespace ks::cuda
