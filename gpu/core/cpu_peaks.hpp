#pragma once
// The CPU backend's roof, measured with short threaded loops on the engine's pool: f32 FMA and integer (u8,
// i16, i32 add/min) throughput (many independent chains in vector registers), the copy bandwidth (memcpy of
// buffers far larger than the caches) and that of working sets the caches hold. Together about a second;
// Engine::peaks(Backend::Cpu) measures them once per engine.
#include "core/peaks.hpp"
#include "core/thread_pool.hpp"

namespace ks {

// f32 FMAs per second on every thread of `pool`, an FMA counting 2 operations, in GFLOP/s.
double measure_cpu_fma_gflops(ThreadPool& pool);
// memcpy across `pool` of a buffer well past the caches: (bytes read + bytes written) / s / 1e9.
double measure_cpu_copy_gbps(ThreadPool& pool);
// Integer adds and mins per second on every thread of `pool` at the lanes of `kind` (U8, I16, I32), in GOP/s.
double measure_cpu_int_gops(ThreadPool& pool, OpKind kind);
// The copy bandwidth of working sets from 128 KiB to 32 MiB (read + write bytes), which stay in the caches.
std::vector<ComputePeaks::CachedCopy> measure_cpu_cached_copies(ThreadPool& pool);
// All of them, with `where` = "CPU (N threads)".
ComputePeaks measure_cpu_peaks(ThreadPool& pool);

}  // namespace ks
