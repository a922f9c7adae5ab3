#include "core/cpu_peaks.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "core/timing.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace ks {

namespace {

// The FMA loops: `Chains` independent accumulators, each x = x * m + a, `iterations` times. The host is built
// with -ffp-contract=off and without -march, so plain a * b + c stays a multiply and an add, and std::fma is
// a library call: the x86 loops are therefore written with FMA intrinsics, each compiled for its instruction
// set and chosen at run time, with enough accumulators in registers to cover the FMA latency on both FMA
// ports. m and a keep x near 1 (x = 0.999 x + 0.001): no overflow, no denormals.
constexpr float kM = 0.999f, kA = 0.001f;

#if defined(__x86_64__)
constexpr int kVectorsAvx512 = 16;  // of 32 zmm registers, 16 floats each
constexpr int kVectorsAvx2 = 12;    // of 16 ymm registers, 8 floats each

[[gnu::target("avx512f,fma")]] float fma_loop_avx512(long long iterations, float seed) {
  __m512 acc[kVectorsAvx512];
  for (int i = 0; i < kVectorsAvx512; ++i) acc[i] = _mm512_set1_ps(seed + float(i) * 1e-3f);
  const __m512 m = _mm512_set1_ps(kM), a = _mm512_set1_ps(kA);
  for (long long it = 0; it < iterations; ++it) {
#pragma GCC unroll 16
    for (int i = 0; i < kVectorsAvx512; ++i) acc[i] = _mm512_fmadd_ps(acc[i], m, a);
  }
  for (int i = 1; i < kVectorsAvx512; ++i) acc[0] = _mm512_add_ps(acc[0], acc[i]);
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, acc[0]);
  float sum = 0;
  for (float v : lanes) sum += v;
  return sum;
}

[[gnu::target("avx2,fma")]] float fma_loop_avx2(long long iterations, float seed) {
  __m256 acc[kVectorsAvx2];
  for (int i = 0; i < kVectorsAvx2; ++i) acc[i] = _mm256_set1_ps(seed + float(i) * 1e-3f);
  const __m256 m = _mm256_set1_ps(kM), a = _mm256_set1_ps(kA);
  for (long long it = 0; it < iterations; ++it) {
#pragma GCC unroll 12
    for (int i = 0; i < kVectorsAvx2; ++i) acc[i] = _mm256_fmadd_ps(acc[i], m, a);
  }
  for (int i = 1; i < kVectorsAvx2; ++i) acc[0] = _mm256_add_ps(acc[0], acc[i]);
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, acc[0]);
  float sum = 0;
  for (float v : lanes) sum += v;
  return sum;
}
#endif

// Anything else: plain multiply and add (two operations, as an FMA counts), left to the compiler to
// vectorise.
constexpr int kChainsBase = 64;
float fma_loop_base(long long iterations, float seed) {
  float acc[kChainsBase];
  for (int i = 0; i < kChainsBase; ++i) acc[i] = seed + float(i) * 1e-3f;
  for (long long it = 0; it < iterations; ++it)
    for (int i = 0; i < kChainsBase; ++i) acc[i] = acc[i] * kM + kA;
  float sum = 0;
  for (int i = 0; i < kChainsBase; ++i) sum += acc[i];
  return sum;
}

struct FmaLoop {
  float (*run)(long long, float);
  int chains;  // f32 FMAs per iteration
};

FmaLoop best_fma_loop() {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma"))
    return {fma_loop_avx512, kVectorsAvx512 * 16};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return {fma_loop_avx2, kVectorsAvx2 * 8};
#endif
  return {fma_loop_base, kChainsBase};
}

// Runs `items` pieces of work on the pool (several per thread, so an uneven split costs little) and returns
// the wall time in ms. `sink` keeps the results observable, so no loop can be dropped.
double timed_fma_round(ThreadPool& pool, const FmaLoop& loop, long long items, long long iterations,
                       std::atomic<float>& sink) {
  Stopwatch watch;
  pool.parallel_for(0, items, [&](long long begin, long long end) {
    float sum = 0;
    for (long long i = begin; i < end; ++i) sum += loop.run(iterations, 1.0f + float(i) * 1e-6f);
    sink.store(sum, std::memory_order_relaxed);
  });
  return watch.elapsed_ms();
}

}  // namespace

double measure_cpu_fma_gflops(ThreadPool& pool) {
  const FmaLoop loop = best_fma_loop();
  const long long items = 8LL * pool.size();
  std::atomic<float> sink{0};
  // Calibrate: double the iterations until a round takes 20 ms (the first rounds also wake the threads and
  // the clocks), then time five rounds of that length.
  long long iterations = 1 << 10;
  while (timed_fma_round(pool, loop, items, iterations, sink) < 20.0 && iterations < (1LL << 34))
    iterations *= 2;
  std::vector<double> samples;
  for (int r = 0; r < 5; ++r) samples.push_back(timed_fma_round(pool, loop, items, iterations, sink));
  const double ms = TimingStats::of(samples).median_ms;
  const double operations = 2.0 * double(items) * double(iterations) * double(loop.chains);
  return ms > 0 && std::isfinite(sink.load()) ? operations / (ms * 1e6) : 0.0;
}

double measure_cpu_copy_gbps(ThreadPool& pool) {
  // 128 MiB each way: past the last-level cache of any current CPU socket slice, so memory is what is timed.
  constexpr std::size_t bytes = std::size_t(128) << 20;
  std::unique_ptr<std::byte[]> src(new std::byte[bytes]), dst(new std::byte[bytes]);
  const long long pieces = 4LL * pool.size();
  const std::size_t piece = (bytes / std::size_t(pieces)) & ~std::size_t(4095);
  auto copy = [&](bool fill) {
    pool.parallel_for(0, pieces, [&](long long begin, long long end) {
      for (long long p = begin; p < end; ++p) {
        const std::size_t offset = std::size_t(p) * piece;
        const std::size_t n = p + 1 == pieces ? bytes - offset : piece;
        // The first pass touches every page (from the thread that will copy it) so no timed copy pays for
        // page faults.
        if (fill) {
          std::memset(src.get() + offset, int(p & 0xff), n);
          std::memset(dst.get() + offset, 0, n);
        }
        std::memcpy(dst.get() + offset, src.get() + offset, n);
      }
    });
  };
  copy(true);
  std::vector<double> samples;
  for (int r = 0; r < 5; ++r) {
    Stopwatch watch;
    copy(false);
    samples.push_back(watch.elapsed_ms());
  }
  const double ms = TimingStats::of(samples).median_ms;
  // Every byte is read once and written once: the same count as the GPU's copy bandwidth.
  return ms > 0 ? 2.0 * double(bytes) / (ms * 1e6) : 0.0;
}

ComputePeaks measure_cpu_peaks(ThreadPool& pool) {
  ComputePeaks p;
  p.fma_gflops = measure_cpu_fma_gflops(pool);
  p.memory_gbps = measure_cpu_copy_gbps(pool);
  p.where = fmt::format("CPU ({} thread{})", pool.size(), pool.size() == 1 ? "" : "s");
  return p;
}

}  // namespace ks
