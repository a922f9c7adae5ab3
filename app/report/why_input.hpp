#pragma once
// What the "Why" explainer reads: one run's launch, timings, roofline, device and, when they were read, its
// hardware counters, gathered from a stencil, lab or simulation report. What a run does not have stays empty
// (the CPU backend has no launch, a run without counters no counters), and the explainer then says nothing
// about it.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/device_info.hpp"
#include "core/kernel_counters.hpp"
#include "core/launch_shape.hpp"
#include "core/occupancy.hpp"
#include "core/occupancy_model.hpp"
#include "core/peaks.hpp"
#include "core/timing.hpp"
#include "engine/engine.hpp"
#include "lab/host_mode.hpp"
#include "lab/lab_report.hpp"
#include "sim/simulation.hpp"

namespace ks::report {

// How the grid of the main kernel filled the GPU.
struct WhyLaunchFill {
  long long blocks = 0;            // in the grid
  int sms = 0;                     // of the device
  int resident_blocks_per_sm = 0;  // blocks one SM holds at once (the occupancy)
};

struct WhyInput {
  std::string family;           // "stencil", "lab" or "simulation": what options the fixes may name
  std::string kernel, variant;  // registry ids (a user's kernel: not in the registry, no variant to name)
  std::vector<std::pair<std::string, std::string>> params;  // as text: which other variants can run them
  Backend backend = Backend::Cpu;
  std::optional<BlockShape> block;  // CUDA
  int block_rank = 2;               // 1: the kernel takes 1-D blocks (the lab's "--block 256")
  std::optional<WhyLaunchFill> fill;
  std::optional<OccupancyReport> occupancy;
  // The device the run used (or a device model), and what the variant asks of an SM at another block: with
  // both, the explainer looks among `candidate_blocks` for one that raises the occupancy.
  std::optional<DeviceInfo> device;
  std::vector<BlockShape> candidate_blocks;
  std::function<std::optional<BlockResources>(BlockShape)> resources_at;
  std::function<long long(BlockShape)> grid_blocks_at;  // blocks of the grid at another block (0: unknown)

  TimingStats kernel_time;
  double upload_ms = 0, download_ms = 0;  // medians; 0 where nothing is copied
  std::optional<double> first_launch_ms;
  std::optional<lab::HostMode> host;  // lab runs: where the host arrays live
  int streams = 1;
  double copy_bandwidth_gbps = 0;  // the device's measured copy bandwidth; 0 on the CPU backend
  RooflineFigures roofline;
  // Bytes each lane loads at once when the warp reads a row: a naive u8 grey stencil 1, f32 4, a float4 16
  // (0: unknown, for variants that load vectors of their own choosing). The ideal sectors per request follow.
  int lane_bytes = 0;
  std::optional<KernelCounters> counters;
};

// From the reports. `device`: the GPU the run used, or a device model; null: none known (then the tail effect
// and a better block are not looked for, unless the report carries the launch arithmetic itself).
WhyInput why_input(const RunReport& report, const DeviceInfo* device);
WhyInput why_input(const lab::LabReport& report, const DeviceInfo* device);
WhyInput why_input(const SimulationReport& report, const DeviceInfo* device);

}  // namespace ks::report
