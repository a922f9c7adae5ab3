#include "core/cpu_peaks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "core/cpu_fma_loop.hpp"
#include "core/cpu_int_loop.hpp"
#include "core/timing.hpp"

namespace ks {

namespace {

// One round of a ceiling's loop: `items` pieces of `iterations` rounds each on the pool (several per thread,
// so an uneven split costs little); returns the wall time in ms. `run(iterations, item)` returns a digest of
// its work, kept in `sink` so no loop can be dropped.
using LoopRun = std::function<double(long long iterations, long long item)>;

double timed_round(ThreadPool& pool, const LoopRun& run, long long items, long long iterations,
                   std::atomic<double>& sink) {
  Stopwatch watch;
  pool.parallel_for(0, items, [&](long long begin, long long end) {
    double digest = 0;
    for (long long i = begin; i < end; ++i) digest += run(iterations, i);
    sink.store(digest, std::memory_order_relaxed);
  });
  return watch.elapsed_ms();
}

// Operations per second / 1e9 of a loop doing `operations_per_iteration` per round on every thread of the
// pool.
double measure_loop_gops(ThreadPool& pool, const LoopRun& run, long long operations_per_iteration) {
  const long long items = 8LL * pool.size();
  std::atomic<double> sink{0};
  // Calibrate: double the iterations until a round takes 20 ms (the first rounds also wake the threads and
  // the clocks), then time five rounds of that length and keep the fastest: a ceiling is the most the machine
  // did, and on a shared machine other work only ever slows a round.
  long long iterations = 1 << 10;
  while (timed_round(pool, run, items, iterations, sink) < 20.0 && iterations < (1LL << 34)) iterations *= 2;
  std::vector<double> samples;
  for (int r = 0; r < 5; ++r) samples.push_back(timed_round(pool, run, items, iterations, sink));
  const double ms = TimingStats::of(samples).min_ms;
  const double operations = double(items) * double(iterations) * double(operations_per_iteration);
  return ms > 0 && std::isfinite(sink.load()) ? operations / (ms * 1e6) : 0.0;
}

}  // namespace

double measure_cpu_fma_gflops(ThreadPool& pool) {
  const CpuFmaLoop loop = cpu_fma_loop();
  return measure_loop_gops(
      pool,
      [&](long long iterations, long long item) { return loop.run(iterations, 1.0f + float(item) * 1e-6f); },
      2 * loop.fmas_per_iteration);
}

double measure_cpu_int_gops(ThreadPool& pool, OpKind kind) {
  const CpuIntLoop loop = cpu_int_loop(kind);
  return measure_loop_gops(
      pool,
      [&](long long iterations, long long item) {
        return double(loop.run(iterations, unsigned(item)) & 0xffff);
      },
      loop.operations_per_iteration);
}

namespace {

// memcpy across the pool of `footprint` bytes (half read, half written), each piece copied `repeats` times in
// a row by the thread that owns it: (bytes read + bytes written) / s / 1e9, the fastest of five rounds (as
// the compute ceilings).
double measure_copy_gbps(ThreadPool& pool, std::size_t footprint, int repeats) {
  const std::size_t bytes = footprint / 2;
  std::unique_ptr<std::byte[]> src(new std::byte[bytes]), dst(new std::byte[bytes]);
  const long long pieces = 4LL * pool.size();
  const std::size_t piece = (bytes / std::size_t(pieces)) & ~std::size_t(63);
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
        for (int r = 0; r < (fill ? 1 : repeats); ++r) std::memcpy(dst.get() + offset, src.get() + offset, n);
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
  const double ms = TimingStats::of(samples).min_ms;
  // Every byte is read once and written once per repeat: the same count as the GPU's copy bandwidth.
  return ms > 0 ? double(repeats) * 2.0 * double(bytes) / (ms * 1e6) : 0.0;
}

}  // namespace

namespace {
// 128 MiB each way: past the last-level cache of any current CPU socket slice, so memory is what is timed.
constexpr std::size_t kMemoryFootprint = std::size_t(256) << 20;
}  // namespace

double measure_cpu_copy_gbps(ThreadPool& pool) {
  return measure_copy_gbps(pool, kMemoryFootprint, 1);
}

std::vector<ComputePeaks::CachedCopy> measure_cpu_cached_copies(ThreadPool& pool) {
  std::vector<ComputePeaks::CachedCopy> copies;
  // 128 KiB to 32 MiB: the bytes (in + out) of 1024^2 to 512^2 images of one and four channels, u8 and f32,
  // and smaller; each round copies about 64 MiB so that a round lasts milliseconds.
  for (std::size_t footprint = std::size_t(128) << 10; footprint <= (std::size_t(32) << 20); footprint *= 4)
    copies.push_back({double(footprint),
                      measure_copy_gbps(pool, footprint,
                                        int(std::max<std::size_t>(1, (std::size_t(64) << 20) / footprint)))});
  return copies;
}

ComputePeaks measure_cpu_peaks(ThreadPool& pool) {
  ComputePeaks p;
  p.fma_gflops = measure_cpu_fma_gflops(pool);
  p.u8_gops = measure_cpu_int_gops(pool, OpKind::U8);
  p.i16_gops = measure_cpu_int_gops(pool, OpKind::I16);
  p.i32_gops = measure_cpu_int_gops(pool, OpKind::I32);
  p.memory_gbps = measure_cpu_copy_gbps(pool);
  p.memory_footprint_bytes = double(kMemoryFootprint);
  p.cached_copies = measure_cpu_cached_copies(pool);
  p.where = fmt::format("CPU ({} thread{})", pool.size(), pool.size() == 1 ? "" : "s");
  return p;
}

}  // namespace ks
