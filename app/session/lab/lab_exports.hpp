#pragma once
// What the app writes for a lab run: the timings (File > Export timings) as `kernelscope-cli lab
// --json/--csv` writes them (schema kernelscope.lab/1, the timeline bars included;
// app/cli/lab_report_json.hpp), plus the size sweep in JSON; and the image a run made (kmeans) with that
// report as its sidecar. Atomic writes.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/image.hpp"
#include "io/image_io.hpp"
#include "session/lab/lab_document.hpp"

namespace ks::app {

// {"variants": [..], "sizes": [{"text", "elements"}], "complete", "points": [{"variant", "size", "elements",
//  "kernel_ms", "end_to_end_ms"}], "failures": [..]}
nlohmann::ordered_json lab_sweep_json(const LabSweep& sweep);

// .json: the report's JSON with "size_sweep" added when there is a sweep of the same kernel; .csv: the
// report's CSV (medians, then every timeline bar). A usage Error for other extensions.
void export_lab_timings(const std::filesystem::path& path, const lab::LabReport& report,
                        const std::optional<LabSweep>& sweep);

// The image (kmeans: the quantised image) and its sidecar NAME.png.json: {"schema":
// "kernelscope.lab-export/1", "output": {"file"}, "run": <the lab report's JSON>}. The image is written
// first, then the sidecar.
void export_lab_image(const Image& image, const std::filesystem::path& path, const SaveOptions& options,
                      const lab::LabReport& report);

}  // namespace ks::app
