// CudaContext::fma_peak_gflops: the compute ceiling of the roofline. Every thread runs kChains independent
// chains x = x * m + a (one FFMA each), so the FMA pipes never wait on a result; the grid is one full wave
// (peak_wave.cuh).
#include <cuda_runtime.h>

#include "core/cuda/device_buffer.cuh"
#include "core/cuda/peak_wave.cuh"
#include "core/cuda_context.hpp"

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
  const cuda::PeakWave wave = cuda::full_wave(fma_chains_kernel, kBlockThreads, info_.sm_count);
  cuda::DeviceBuffer out(wave.threads * sizeof(float), "the FMA peak test");
  const double median_ms = cuda::median_launch_ms(static_cast<cudaStream_t>(stream_), [&](cudaStream_t s) {
    fma_chains_kernel<<<wave.blocks, kBlockThreads, 0, s>>>(static_cast<float*>(out.get()), 0.999f, 0.001f,
                                                            kIterations);
  });
  const double operations = 2.0 * double(wave.threads) * double(kChains) * double(kIterations);
  fma_peak_gflops_ = median_ms > 0 ? operations / (median_ms * 1e6) : 0;
  return fma_peak_gflops_;
}

}  // namespace ks
