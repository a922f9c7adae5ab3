// CudaContext::op_peak_gops: the roofline's ceiling of each kind of operation (core/op_mix.hpp) on the GPU,
// measured as the FMA peak is (fma_peak.cu): every thread runs kChains independent chains of one step of that
// kind, the grid is one full wave (peak_wave.cuh). The f32 step is the FMA peak's own, so its figure checks
// this kernel against that one; the integer steps are an add then a min, on four u8 lanes of a 32-bit word
// (__vadd4, __vminu4), two 16-bit lanes (__vadd2, __vmins2) or one int32.
#include <cuda_runtime.h>

#include <stdexcept>

#include "core/cuda/device_buffer.cuh"
#include "core/cuda/peak_wave.cuh"
#include "core/cuda_context.hpp"

namespace ks {

namespace {

constexpr int kChains = 16;  // independent steps in flight per thread, as the FMA peak's kernel
constexpr int kBlockThreads = 256;

// Each step type: the register type T, one step from x with run-time constants a and b, its operations (lanes
// x operations per lane) and a start that differs per thread and chain (so no chain is shared or folded).
struct F32FmaStep {
  using T = float;
  static constexpr int kOperations = 2;  // an FMA counts 2
  static constexpr int kIterations = 32768;
  __device__ static T start(unsigned id, int chain) {
    return 1.0f + float(id) * 1e-9f + float(chain) * 1e-3f;
  }
  __device__ static T step(T x, T a, T b) { return __fmaf_rn(x, a, b); }  // x = 0.999 x + 0.001 stays near 1
};

struct U8Step {
  using T = unsigned;
  static constexpr int kOperations = 4 * 2;
  static constexpr int kIterations = 8192;  // integer lanes are fewer than FP32 ones: a shorter launch
  __device__ static T start(unsigned id, int chain) { return id * 0x01010101u + unsigned(chain); }
  __device__ static T step(T x, T a, T b) { return __vminu4(__vadd4(x, a), b); }
};

struct I16Step {
  using T = unsigned;
  static constexpr int kOperations = 2 * 2;
  static constexpr int kIterations = 8192;
  __device__ static T start(unsigned id, int chain) { return id * 0x00010001u + unsigned(chain); }
  __device__ static T step(T x, T a, T b) { return __vmins2(__vadd2(x, a), b); }
};

struct I32Step {
  using T = int;
  static constexpr int kOperations = 2;
  static constexpr int kIterations = 8192;
  __device__ static T start(unsigned id, int chain) { return int(id) + chain; }
  __device__ static T step(T x, T a, T b) { return min(x + a, b); }
};

template <class Step>
__global__ void __launch_bounds__(kBlockThreads)
    op_chains_kernel(typename Step::T* out, typename Step::T a, typename Step::T b, int iterations) {
  using T = typename Step::T;
  const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  T acc[kChains];
#pragma unroll
  for (int i = 0; i < kChains; ++i) acc[i] = Step::start(id, i);
#pragma unroll 4
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int i = 0; i < kChains; ++i) acc[i] = Step::step(acc[i], a, b);
  }
  T sum = 0;  // always stored, so no chain is dead code
#pragma unroll
  for (int i = 0; i < kChains; ++i) sum += acc[i];
  out[id] = sum;
}

// Operations per second / 1e9 of Step's kernel over one full wave; a and b arrive at run time.
template <class Step>
double measure_step_gops(int sm_count, cudaStream_t stream, typename Step::T a, typename Step::T b) {
  const cuda::PeakWave wave = cuda::full_wave(op_chains_kernel<Step>, kBlockThreads, sm_count);
  cuda::DeviceBuffer out(wave.threads * sizeof(typename Step::T), "an operation peak test");
  const double median_ms = cuda::median_launch_ms(stream, [&](cudaStream_t s) {
    op_chains_kernel<Step><<<wave.blocks, kBlockThreads, 0, s>>>(static_cast<typename Step::T*>(out.get()), a,
                                                                 b, Step::kIterations);
  });
  const double operations =
      double(wave.threads) * double(kChains) * double(Step::kIterations) * double(Step::kOperations);
  return median_ms > 0 ? operations / (median_ms * 1e6) : 0;
}

}  // namespace

double CudaContext::op_peak_gops(OpKind kind) {
  double& kept = op_peaks_gops_[std::size_t(kind)];
  if (kept > 0) return kept;
  make_current();  // this thread may have opened another device since (a worker per GPU)
  const auto s = static_cast<cudaStream_t>(stream_);
  const int sms = info_.sm_count;
  switch (kind) {
    case OpKind::F32Fma:
      kept = measure_step_gops<F32FmaStep>(sms, s, 0.999f, 0.001f);
      break;
    // Steps of 1 (each lane) and limits well inside the lanes: the chains climb, then stay at the limit.
    case OpKind::U8:
      kept = measure_step_gops<U8Step>(sms, s, 0x01010101u, 0xf0f0f0f0u);
      break;
    case OpKind::I16:
      kept = measure_step_gops<I16Step>(sms, s, 0x00010001u, 0x7f007f00u);
      break;
    case OpKind::I32:
      kept = measure_step_gops<I32Step>(sms, s, 1, 1 << 30);
      break;
    case OpKind::F32One:
      throw std::logic_error("op_peak_gops: lone f32 operations are bounded by the FMA peak");
  }
  return kept;
}

}  // namespace ks
