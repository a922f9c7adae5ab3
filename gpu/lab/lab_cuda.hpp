#pragma once
// The CUDA side of run_lab (gpu/lab/cuda/lab_cuda.cu; lab_cuda_nocuda.cpp without CUDA): host arrays in the
// requested memory mode, device copies, timed upload / kernel / download per repeat, the chunked pipeline of
// --streams K, and the timeline from CUDA events. Declared without CUDA headers.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/kernel_counters.hpp"
#include "core/timing.hpp"
#include "lab/host_mode.hpp"
#include "lab/lab_kernel.hpp"
#include "lab/lab_report.hpp"

namespace ks {
class CudaContext;
}

namespace ks::lab {

struct CudaJob {
  const LabKernel* kernel = nullptr;
  const std::vector<ArraySpec>* arrays = nullptr;
  const ArrayViews* sources = nullptr;  // inputs as filled (pageable host memory); outputs null
  LabCudaRun* run = nullptr;
  LabSize size;
  HostMode host = HostMode::Pageable;
  int streams = 1;
  int chunks = 1;
  int warmup = 1;
  int repeat = 5;
  const LabRunControl* control = nullptr;
  bool counters = false;    // one more serial launch after the timed ones, under the counter profiler
  std::string kernel_name;  // what the counters name the launch
};

struct CudaOutcome {
  // The serial run (one stream, one chunk): medians over the repeats.
  TimingStats upload, kernel, download, end_to_end;
  std::vector<TimelineBar> timeline;  // the run as asked (streamed when streams > 1), its median repeat
  std::vector<TimelineBar> serial_timeline;  // streams > 1: the serial run's median repeat
  TimingStats streamed_end_to_end;    // streams > 1
  std::optional<bool> streamed_matches_serial;
  std::uint64_t upload_bytes = 0, download_bytes = 0;  // per repeat
  std::optional<double> first_kernel_ms;  // the first warm-up repeat's kernel (CUDA events); none without warm-up
  ArrayViews arrays;               // host-readable after the run: inputs as given, outputs as downloaded
  std::shared_ptr<void> storage;   // owns what `arrays` point to
  CounterReading counters;         // when CudaJob::counters asked for them
};

CudaOutcome run_lab_cuda(CudaContext& context, const CudaJob& job);

// Device memory free now (cudaMemGetInfo), for the check before a run.
std::uint64_t device_free_memory(CudaContext& context);

}  // namespace ks::lab
