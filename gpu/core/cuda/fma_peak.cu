// CudaContext::fma_peak_gflops: the compute ceiling of the roofline. Every thread runs kChains independent
// chains x = x * m + a (one FFMA each), so the FMA pipes never wait on a result; the grid is exactly the
// blocks that fit on every SM at once, so all SMs work for the whole launch and none runs a tail wave.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "core/cuda/check.cuh"
#include "core/cuda/device_buffer.cuh"
#include "core/cuda/event_timer.cuh"
#include "core/cuda_context.hpp"
#include "core/timing.hpp"

namespace ks {

namespace {

constexpr int kChains = 16;  // independent FMAs in flight per thread (latency 4 cycles, 4 issue slots)
constexpr int kBlockThreads = 256;
constexpr int kIterations = 32768;  // ~2 ms per launch on an H100: long enough for events, short overall

// m, a and the iteration count arrive at run time and every chain starts from the thread's own index, so the
// compiler can neither fold a chain nor share one between threads; the sum is always stored, so no chain is
// dead code. m and a keep x near 1 (x = 0.999 x + 0.001): no overflow, no denormals.
__global__ void __launch_bounds__(kBlockThreads)
    fma_chains_kernel(float* out, float m, float a, int iterations) {
  const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  float acc[kChains];
#pragma unroll
  for (int i = 0; i < kChains; ++i) acc[i] = 1.0f + float(id) * 1e-9f + float(i) * 1e-3f;
#pragma unroll 4
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int i = 0; i < kChains; ++i) acc[i] = __fmaf_rn(acc[i], m, a);
  }
  float sum = 0;
#pragma unroll
  for (int i = 0; i < kChains; ++i) sum += acc[i];
  out[id] = sum;
}

}  // namespace

double CudaContext::fma_peak_gflops() {
  if (fma_peak_gflops_ > 0) return fma_peak_gflops_;
  make_current();  // this thread may have opened another device since (a worker per GPU)
  int blocks_per_sm = 0;
  cuda::check(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, fma_chains_kernel, kBlockThreads, 0),
      "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  const int blocks = std::max(1, blocks_per_sm) * std::max(1, info_.sm_count);
  const std::size_t threads = std::size_t(blocks) * kBlockThreads;
  cuda::DeviceBuffer out(threads * sizeof(float), "the FMA peak test");
  auto s = static_cast<cudaStream_t>(stream_);
  cuda::EventTimer timer(s);
  std::vector<double> samples;
  constexpr int warmup = 3, timed = 10;  // the first launches pay for clocks ramping up
  for (int i = 0; i < warmup + timed; ++i) {
    timer.start();
    fma_chains_kernel<<<blocks, kBlockThreads, 0, s>>>(static_cast<float*>(out.get()), 0.999f, 0.001f,
                                                       kIterations);
    cuda::check(cudaGetLastError(), "launching the FMA peak kernel");
    timer.stop();
    const double ms = timer.elapsed_ms();
    if (i >= warmup) samples.push_back(ms);
  }
  const double median_ms = TimingStats::of(samples).median_ms;
  const double operations = 2.0 * double(threads) * double(kChains) * double(kIterations);
  fma_peak_gflops_ = median_ms > 0 ? operations / (median_ms * 1e6) : 0;
  return fma_peak_gflops_;
}

}  // namespace ks
