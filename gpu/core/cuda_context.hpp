#pragma once
// The CUDA state of one process: the device in use, its properties, a stream, and the device's copy bandwidth
// and FMA throughput measured once (lazily). Declared without CUDA headers. `CudaContext::create` throws a
// Device error, whose hint suggests `--backend cpu`, when the build has no CUDA or there is no usable device.
#include <array>
#include <functional>
#include <memory>
#include <string>

#include "core/device_info.hpp"
#include "core/kernel_counters.hpp"
#include "core/op_mix.hpp"

namespace ks {

class CounterProfiler;

// Host <-> device copy bandwidth in GB/s, each direction, from pageable and from pinned host memory.
struct HostLinkBandwidth {
  double pageable_to_device = 0;
  double pageable_from_device = 0;
  double pinned_to_device = 0;
  double pinned_from_device = 0;
};

class CudaContext {
 public:
  static std::unique_ptr<CudaContext> create(int device_index = 0);
  ~CudaContext();
  CudaContext(const CudaContext&) = delete;
  CudaContext& operator=(const CudaContext&) = delete;

  const DeviceInfo& device() const noexcept { return info_; }
  // Device-to-device copy bandwidth in GB/s (bytes read + bytes written), measured on first call with a
  // 1 GiB copy (smaller if memory is short), median of several timed copies after a warm-up.
  double copy_bandwidth_gbps();
  // f32 fused multiply-add throughput in GFLOP/s (an FMA counting 2 operations), measured on first call like
  // the copy bandwidth: a kernel of many independent FMA chains per thread filling every SM, median of
  // several timed launches after a warm-up (core/cuda/fma_peak.cu). The compute ceiling of the roofline.
  double fma_peak_gflops();
  // The ceiling of one kind of operation in operations/s / 1e9, measured on first call per kind like the FMA
  // peak (core/cuda/op_peaks.cu): F32Fma (an independent check of fma_peak_gflops), U8, I16 and I32 (an
  // integer add then a min per step, on 4, 2 and 1 lanes of a 32-bit register). F32One is a logic error: it
  // is half the FMA peak (peaks.hpp's kind_ceiling_gops).
  double op_peak_gops(OpKind kind);
  // Host <-> device bandwidth (bytes copied / time), measured on first call like the copy bandwidth: 256 MiB
  // (less if memory is short) each way from pageable and from pinned memory, median of several timed copies.
  const HostLinkBandwidth& host_bandwidth();
  // The stream every launch of this context goes to (a cudaStream_t, opaque here).
  void* stream() const noexcept { return stream_; }
  // Makes this context's device the current one of the calling thread (CUDA keeps it per thread): every thread
  // that allocates or launches for a context calls it first, e.g. one worker thread per GPU.
  void make_current() const;
  // The hardware counters of the kernels `work` launches (CUPTI, core/cuda/counter_profiler.hpp), named
  // `kernel_name`: the runners call it once more after their timed launches, so that timings stay clean. No
  // counters, with the reason, where the driver forbids them, CUPTI is missing or another profiler holds them.
  CounterReading read_counters(const std::function<void()>& work, const std::string& kernel_name);
  // Which counters read_counters reads (core/kernel_counters.hpp): All (the default) or Quick, one pass. The
  // front ends set it from the user's choice (`--counters quick`, the Timing section's choice).
  void set_counter_set(CounterSet set) noexcept { counter_set_ = set; }
  // Lets go of the GPU's counters until the next reading, for another process to read them
  // (CounterProfiler::release): the worker process after each reading, the app before its worker reads.
  void release_counters();
  CounterSet counter_set() const noexcept { return counter_set_; }

 private:
  CudaContext() = default;
  DeviceInfo info_;
  void* stream_ = nullptr;
  double copy_bandwidth_gbps_ = 0;
  double fma_peak_gflops_ = 0;
  std::array<double, kOpKinds> op_peaks_gops_{};
  std::unique_ptr<HostLinkBandwidth> host_bandwidth_;
  std::unique_ptr<CounterProfiler> counters_;  // set up on the first reading
  CounterSet counter_set_ = CounterSet::All;
};

}  // namespace ks
