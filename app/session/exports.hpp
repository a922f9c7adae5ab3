#pragma once
// What the app writes: the result at full resolution with a JSON sidecar that says how it was made, and the
// timing history as CSV or JSON. Every file is written atomically (gpu/io/atomic_file.hpp), and a result goes in
// place only after its sidecar was written: a failure never leaves a new image with an old or missing sidecar.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/image.hpp"
#include "engine/engine.hpp"
#include "io/image_io.hpp"
#include "session/stencil/timing_history.hpp"

namespace ks::app {

// The CPU reference of a GPU result: its time and how far the GPU's pixels are from it.
struct CpuReference {
  double median_ms = 0;
  double max_abs_difference = 0;  // in the image's units (0..255 for u8)
  bool identical = false;         // every element equal
};

// How a result came to be, for its sidecar.
struct ResultProvenance {
  std::string input;              // the input file's path, or "embedded sample"
  ImageShape input_shape;         // as the file holds it
  RunReport report;               // the run that made the result
  TimingSummary history;          // the kernel's timing history at export time
  std::optional<CpuReference> cpu_reference;
  std::string display_path;       // how the viewport showed it ("CUDA-GL interop", "host upload"); may be empty
};

// "out.png" -> "out.png.json": the sidecar sits beside its image and names it, whatever the image's format.
std::filesystem::path sidecar_path_for(const std::filesystem::path& image_path);

// {"schema": "kernelscope.export/1", "kernelscope_version", "input": {"file", "image"},
//  "output": {"file", "image", "format"}, "run": <run report JSON, see app/cli/report_json.hpp>,
//  "history": {"runs", "kernel_ms": {min, median, p95}, "upload_ms", "download_ms", "display_ms"},
//  "cpu_reference": {"median_ms", "speedup", "max_abs_difference", "identical"} | null, "display_path"}
nlohmann::ordered_json result_sidecar(const ResultProvenance& provenance, const std::filesystem::path& image_path,
                                      const Image& saved);

// Saves `image` (format from the extension, see image_io.hpp) and its sidecar. The image is written under a
// temporary name first and renamed into place only after the sidecar was written.
void export_result(const Image& image, const std::filesystem::path& path, const SaveOptions& options,
                   const ResultProvenance& provenance);

// Extension .csv or .json (usage Error otherwise); see timing_csv / timing_json.
void export_timings(const std::filesystem::path& path, const std::vector<TimingEntry>& entries,
                    const std::string& device, double copy_bandwidth_gbps);

}  // namespace ks::app
