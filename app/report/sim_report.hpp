#pragma once
// The text and JSON forms of a SimulationReport: what `sim` prints and writes with --json. Free of CLI
// concerns (like report_json.hpp), so the GUI's export can reuse them.
//
// {
//   "schema": "kernelscope.sim/1", "kernelscope_version": "0.1.0",
//   "kernel": "life", "variant": "bitpacked", "backend": "cuda", "device": "NVIDIA H100 80GB HBM3",
//   "grid": {"width": 8192, "height": 8192},
//   "params": {"rule": "B3/S23", ...},          values as the user would type them
//   "block": {"x": 32, "y": 8} | null,          CUDA only
//   "steps": 200,                               steps run (the generation reached)
//   "timings_ms": {"step": {"count", "min", "median", "p95", "mean"}},   per step
//   "steps_per_second": .., "cell_updates_per_second": .. (width * height * steps/s),
//   "bytes_per_step": .., "gbps": ..,
//   "copy_bandwidth_gbps": .., "percent_of_copy": ..,   0 on the CPU backend
//   "occupancy": {...} | null,
//   "roofline": {...} per step (report_json.hpp),
//   "population": 123 (life) | "total": 1.5 (heat: sum of u; grayscott: sum of v),
//   "first_launch_ms": the first step (module loading included) | null before a step,
//   "why": [{"id", "finding", "fix"}, ...]    the "Why is it slow" findings (report/why_explain.hpp)
// }
#include <nlohmann/json.hpp>
#include <string>

#include "core/device_info.hpp"
#include "sim/simulation.hpp"

namespace ks {

inline constexpr const char* kSimReportSchema = "kernelscope.sim/1";

// `device`: the GPU the simulation runs on, for the "why" findings that need its SMs and limits; null: those
// are not looked for.
nlohmann::ordered_json to_json(const SimulationReport& report, const SimulationStats& stats,
                               const DeviceInfo* device = nullptr);

}  // namespace ks

namespace ks::report {

// "life (variant bitpacked, block 32x8) on NVIDIA H100 via CUDA; grid 8192x8192; 200 steps", the per-step
// timing table (min, median, p95, steps/s, bytes per step, GB/s, % of copy bandwidth), the copy bandwidth and
// occupancy lines, and the population or total; each line ending in '\n'.
std::string sim_report_text(const SimulationReport& report, const SimulationStats& stats);

}  // namespace ks::report
