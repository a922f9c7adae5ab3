#pragma once
// The JSON and CSV forms of a lab run (kernelscope-cli lab --json/--csv; the GUI's exports). No CLI
// dependency, like report_json.
//
// {
//   "schema": "kernelscope.lab/1", "kernelscope_version", "kernel", "variant", "backend", "device",
//   "size": {"form": "n" | "NxM" | "MxNxK" | "image", "dims": [..], "text": "268435456", "elements": ..},
//   "params": {"alpha": "2", ...}, "block": {"x", "y"} | null, "host": "pinned", "streams": 4, "chunks": 16,
//   "seed": 1, "warmup": 1,
//   "timings_ms": {"upload", "kernel", "download", "end_to_end": {count, min, median, p95, mean},
//                  "serial_sum": .., "overlap_ratio": ..},         with streams: the serial run's
//                  upload/kernel/
//   "streamed_matches_serial": true | false | null,                download, the streamed end_to_end
//   "cost": {"bytes", "operations", "operation_kind": "flop" | "comparison"}, "gbps",
//   "gflops" (null for comparisons), "giga_comparisons_per_s" (null for FLOPs), "upload_gbps", "download_gbps",
//   "copy_bandwidth_gbps", "percent_of_copy", "arithmetic_intensity" (FLOP per byte; null for comparisons),
//   "comparisons_per_byte" (null for FLOPs), "peak_gflops", "percent_of_peak_flops" (the backend's measured
//   FMA peak; null when unknown or for comparisons), "roofline": {...} (report_json.hpp; comparisons count no
//   FLOPs there: intensity 0, % of the memory roof),
//   "cpu_reference_ms", "check": {"checked", "agrees", "max_abs_error", "max_rel_error", "bound", "detail"},
//   "facts": [{"name", "value", "number"}], "series": [{"name", "x_label", "values": [..]}], "notes": [..],
//   "launch": {"kernel_name", "grid": [x, y], "block": [x, y], "blocks", "threads_per_block",
//   "total_threads",
//              "work_items", "idle_threads", "items_per_thread", "blocks_per_sm", "sms", "blocks_per_wave",
//              "waves", "full_waves", "tail_wave_occupancy"} | null,
//   "occupancy": {...} | null,
//   "timeline": [{"lane", "stream", "chunk", "start_ms", "end_ms", "bytes"}], "serial_timeline": [..],
//   "first_launch_ms": the first warm-up repeat's kernel | null without warm-up,
//   "why": [{"id", "finding", "fix"}, ...]    the "Why is it slow" findings (report/why_explain.hpp)
// }
#include <nlohmann/json.hpp>
#include <string>

#include "core/device_info.hpp"
#include "lab/lab_report.hpp"

namespace ks {

inline constexpr const char* kLabReportSchema = "kernelscope.lab/1";

// `device`: the GPU the run used, for the "why" findings that need its limits (a block that raises the
// occupancy); null: those are not looked for.
nlohmann::ordered_json to_json(const lab::LabReport& report, const DeviceInfo* device = nullptr);

// One row per figure, long format: run,lane,stream,chunk,start_ms,end_ms,ms,bytes. First the medians
// (run "median": upload, kernel, download, end_to_end; no stream, chunk or times), then every timeline bar
// (run "streamed" or "serial" with streams, else "serial").
std::string lab_csv(const lab::LabReport& report);

}  // namespace ks
