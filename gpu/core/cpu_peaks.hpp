#pragma once
// The CPU backend's roof, measured with short threaded loops on the engine's pool: f32 FMA throughput (many
// independent accumulators in vector registers) and copy bandwidth (memcpy of buffers far larger than the
// caches). Each takes well under a second; Engine::peaks(Backend::Cpu) measures them once per engine.
#include "core/peaks.hpp"
#include "core/thread_pool.hpp"

namespace ks {

// f32 FMAs per second on every thread of `pool`, an FMA counting 2 operations, in GFLOP/s.
double measure_cpu_fma_gflops(ThreadPool& pool);
// memcpy across `pool` of a buffer well past the caches: (bytes read + bytes written) / s / 1e9.
double measure_cpu_copy_gbps(ThreadPool& pool);
// Both, with `where` = "CPU (N threads)".
ComputePeaks measure_cpu_peaks(ThreadPool& pool);

}  // namespace ks
