#pragma once
// The JSON form of a RunReport: what `run --json`, `bench --json` and `demo` write, and what the GUI's export
// writes too (app/report is shared by both front ends: keep this free of CLI concerns).
//
// {
//   "schema": "kernelscope.run/1", "kernelscope_version": "0.1.0",
//   "kernel": "box", "variant": "cpu", "backend": "cpu", "device": "CPU (8 threads)",
//   "image": {"width": 1024, "height": 768, "channels": 4, "type": "u8"},
//   "params": {"radius": "2", ...},            values as the user would type them (reproducible command
//   lines) "block": {"x": 32, "y": 8} | null,          CUDA only "timings_ms": {"upload": 0.41, "download":
//   0.39,
//                  "kernel": {"count": 5, "min": .., "median": .., "p95": .., "mean": ..}},
//   "cost": {"bytes": .., "operations": ..},
//   "gbps": .., "copy_bandwidth_gbps": .., "percent_of_copy": ..,   0 on the CPU backend for the last two
//   "occupancy": {"kernel_name", "block_threads", "registers_per_thread", "static_shared_bytes",
//                 "dynamic_shared_bytes", "active_blocks_per_sm", "occupancy", "limiter"} | null,
//   "counters": the hardware counters of one more launch (report/counters_report.hpp) | null,
//   "roofline": <to_json(RooflineFigures)>,
//   "first_launch_ms": the first warm-up launch (module loading included) | null without warm-up,
//   "why": [{"id", "finding", "fix"}, ...]    the "Why is it slow" findings (report/why_explain.hpp)
// }
// The roofline figures (every report carries them: run, bench, sim, topo, lab):
//   {"arithmetic_intensity": operations / bytes, "gflops": .., "gbps": .., "attainable_gflops": the roof
//   there,
//    "percent_of_roof": .., "peaks": {"memory_gbps": .., "fma_gflops": .., "where": "CPU (16 threads)"}}
#include <nlohmann/json.hpp>

#include "core/device_info.hpp"
#include "core/image.hpp"
#include "core/occupancy.hpp"
#include "core/peaks.hpp"
#include "core/timing.hpp"
#include "engine/engine.hpp"

namespace ks {

inline constexpr const char* kRunReportSchema = "kernelscope.run/1";

// The keys every kernel report starts with, in this order: schema, kernelscope_version, kernel, variant, backend,
// device (run, sim and lab reports; the callers add their own after them).
nlohmann::ordered_json report_head(const char* schema, const std::string& kernel, const std::string& variant,
                                   Backend backend, const std::string& device);
nlohmann::ordered_json to_json(const ImageShape& shape);
nlohmann::ordered_json to_json(const TimingStats& stats);
nlohmann::ordered_json to_json(const OccupancyReport& occupancy);
nlohmann::ordered_json to_json(const ComputePeaks& peaks);
nlohmann::ordered_json to_json(const RooflineFigures& figures);
// A duration that may be missing: the number, or null.
nlohmann::ordered_json optional_ms(const std::optional<double>& ms);
// `device`: the GPU the run used (or a device model), for the "why" findings that need its SMs and limits
// (the tail effect, a block that raises the occupancy); null: those are not looked for.
nlohmann::ordered_json to_json(const RunReport& report, const DeviceInfo* device = nullptr);
// What `run --json` writes, and the Python module's Result.report: to_json(report, device) and then
// "input": {"path", "image": the input's own shape}, "output": the file written, "warmup". An empty path or output
// is null (an array handed to the Python module has no file).
nlohmann::ordered_json run_command_json(const RunReport& report, const std::string& input_path,
                                        const ImageShape& input_shape, const std::string& output_path, int warmup,
                                        const DeviceInfo* device = nullptr);

}  // namespace ks
