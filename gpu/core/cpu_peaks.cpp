#include "core/cpu_peaks.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "core/cpu_fma_loop.hpp"
#include "core/timing.hpp"

namespace ks {

namespace {

// Runs `items` pieces of work on the pool (several per thread, so an uneven split costs little) and returns
// the wall time in ms. `sink` keeps the results observable, so no loop can be dropped.
double timed_fma_round(ThreadPool& pool, const CpuFmaLoop& loop, long long items, long long iterations,
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
  const CpuFmaLoop loop = cpu_fma_loop();
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
  const double operations = 2.0 * double(items) * double(iterations) * double(loop.fmas_per_iteration);
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
