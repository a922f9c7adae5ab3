#pragma once
// What one lab run reports: the CLI prints it, --json/--csv export it, the GUI's Lab, Timing and Roofline
// panels draw it.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/kernel_counters.hpp"
#include "core/launch_shape.hpp"
#include "core/occupancy.hpp"
#include "core/peaks.hpp"
#include "core/timing.hpp"
#include "lab/host_mode.hpp"
#include "lab/lab_kernel.hpp"
#include "lab/lab_size.hpp"
#include "registry/kernel_spec.hpp"

namespace ks::lab {

// vecadd's lesson: how the grid covers the work and how it fills the GPU.
struct LaunchArithmetic {
  std::string kernel_name;
  std::int64_t grid_x = 0, grid_y = 1;
  BlockShape block{1, 1};
  std::int64_t blocks = 0;             // grid_x * grid_y
  std::int64_t threads_per_block = 0;
  std::int64_t total_threads = 0;
  std::int64_t work_items = 0;         // what the threads cover (n, n/4 float4s, ...)
  std::int64_t idle_threads = 0;       // threads with no item: with grid = ceil(items / block), all in the last block
  double items_per_thread = 0;         // work_items / total_threads (> 1: a grid-stride loop)
  int blocks_per_sm = 0;               // resident at once (occupancy)
  int sms = 0;
  std::int64_t slots = 0;              // blocks_per_sm * sms: blocks one wave runs
  double waves = 0;                    // blocks / slots
  std::int64_t full_waves = 0;
  double tail_wave_occupancy = 0;      // the last wave's share of the slots (1: no partial wave)
};
// From a variant's geometry and the device's SM count.
LaunchArithmetic launch_arithmetic(const LaunchGeometry& geometry, int sm_count);

// One bar of the copy/kernel timeline: CUDA events relative to the run's start event.
struct TimelineBar {
  std::string lane;  // "upload", "kernel", "download"
  int stream = 0;
  int chunk = 0;
  double start_ms = 0;
  double end_ms = 0;
  std::uint64_t bytes = 0;  // copied (upload, download); 0 for kernels
};

struct LabReport {
  std::string kernel;
  std::string variant;
  Backend backend = Backend::Cpu;
  std::string device;  // GPU name, or "CPU (N threads)"
  LabSize size;
  std::vector<std::pair<std::string, std::string>> params;
  std::optional<BlockShape> block;  // CUDA only
  HostMode host = HostMode::Pageable;
  int streams = 1;
  int chunks = 1;
  std::uint64_t seed = 1;
  int warmup = 0;

  // CUDA: each timed repeat uploads, launches and downloads (per mode: no copies for mapped memory, prefetches
  // for managed-prefetch, on-demand migration inside the kernel for managed). CPU: kernel only.
  // With --streams K > 1, upload/kernel/download are those of the same run done serially (one stream, one
  // chunk) and end_to_end is the streamed pipeline's: serial_sum_ms = the median upload + kernel + download of
  // the serial run, overlap_ratio = end_to_end median / serial_sum_ms (< 1: the streams hid some copying).
  TimingStats upload_time;
  TimingStats kernel_time;
  TimingStats download_time;
  // The first warm-up repeat's kernel: on CUDA it includes loading the module and, with --host managed, the
  // first page migrations; what a single timing would show and the median hides. None without warm-up.
  std::optional<double> first_launch_ms;
  TimingStats end_to_end_time;  // start of the upload to the end of the download (of the whole pipeline)
  double serial_sum_ms = 0;
  double overlap_ratio = 0;
  std::optional<bool> streamed_matches_serial;  // the outputs of both runs byte for byte

  CostModel cost;
  OperationKind operation_kind = OperationKind::Flop;  // what cost.operations counts (LabInfo::operations)
  double gbps = 0;    // cost.bytes / median kernel time
  double gflops = 0;  // cost.operations / median kernel time where they are FLOPs (else 0)
  double upload_gbps = 0, download_gbps = 0;  // bytes copied / median copy time (0 without copies)
  double copy_bandwidth_gbps = 0;  // the device's measured copy bandwidth; 0 on the CPU backend
  double percent_of_copy = 0;      // gbps / copy_bandwidth_gbps * 100
  double arithmetic_intensity = 0; // FLOPs / bytes (0 where the cost counts comparisons)
  // Where the cost counts comparisons (sort): 1e9 comparisons per second and comparisons per byte (else 0).
  double giga_comparisons_per_s = 0;
  double comparisons_per_byte = 0;
  std::optional<double> peak_gflops;  // the backend's measured FMA peak (Runtime::peaks), when known; FLOPs only
  std::optional<double> percent_of_peak_flops;
  // Intensity, rates, the backend's peaks, % of the roof. A run of comparisons has no FLOPs: intensity 0, and
  // its % of the roof is that of the memory roof.
  RooflineFigures roofline;

  double cpu_reference_ms = 0;  // the CPU reference's one run for the check (0 when not run)
  LabCheck check;
  std::vector<LabFact> facts;
  std::vector<LabSeries> series;
  std::vector<std::string> notes;

  std::optional<LaunchArithmetic> launch;
  std::optional<OccupancyReport> occupancy;
  std::optional<KernelCounters> counters;  // asked for and readable: one launch of the kernel
  std::string counters_unavailable;        // asked for and not readable: why
  std::vector<TimelineBar> timeline;         // the median repeat of the run as asked
  std::vector<TimelineBar> serial_timeline;  // with streams > 1: the median serial repeat
};

// "pinned, 4 streams x 4 chunks" etc. are the CLI's business; these derive the rates of a report in place.
// `peaks`: the backend's roof (Runtime::peaks); without it peak_gflops stays as it is and the roofline figures
// have no peaks.
void fill_rates(LabReport& report, const ComputePeaks* peaks = nullptr);

}  // namespace ks::lab
