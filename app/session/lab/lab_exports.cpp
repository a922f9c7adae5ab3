#include "session/lab/lab_exports.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "report/lab_report_json.hpp"
#include "io/atomic_file.hpp"
#include "session/exports.hpp"

namespace ks::app {

namespace fs = std::filesystem;

namespace {

std::string lower_extension(const fs::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext;
}

}  // namespace

nlohmann::ordered_json lab_sweep_json(const LabSweep& sweep) {
  nlohmann::ordered_json j;
  j["kernel"] = sweep.kernel;
  j["backend"] = to_string(sweep.backend);
  j["variants"] = sweep.variants;
  j["sizes"] = nlohmann::ordered_json::array();
  for (const auto& s : sweep.sizes)
    j["sizes"].push_back({{"text", lab::to_string(s)}, {"elements", s.elements()}});
  j["complete"] = sweep.complete;
  j["points"] = nlohmann::ordered_json::array();
  for (const auto& p : sweep.points)
    j["points"].push_back({{"variant", p.variant},
                           {"size", lab::to_string(p.size)},
                           {"elements", p.size.elements()},
                           {"kernel_ms", p.kernel_ms},
                           {"end_to_end_ms", p.end_to_end_ms}});
  j["failures"] = sweep.failures;
  return j;
}

void export_lab_timings(const fs::path& path, const lab::LabReport& report,
                        const std::optional<LabSweep>& sweep) {
  const std::string ext = lower_extension(path);
  if (ext == ".csv") {
    write_text_atomically(path, lab_csv(report));
  } else if (ext == ".json") {
    nlohmann::ordered_json j = to_json(report);
    if (sweep && sweep->kernel == report.kernel) j["size_sweep"] = lab_sweep_json(*sweep);
    write_text_atomically(path, j.dump(2) + "\n");
  } else {
    throw_usage(
        fmt::format("cannot export timings to '{}': the file name must end in .csv or .json", path.string()),
        "choose timings.csv or timings.json");
  }
}

void export_lab_image(const Image& image, const fs::path& path, const SaveOptions& options,
                      const lab::LabReport& report) {
  nlohmann::ordered_json sidecar;
  sidecar["schema"] = "kernelscope.lab-export/1";
  sidecar["output"] = {
      {"file", path.filename().string()}, {"width", image.width()}, {"height", image.height()}};
  sidecar["run"] = to_json(report);
  save_image(image, path, options);
  write_text_atomically(sidecar_path_for(path), sidecar.dump(2) + "\n");
}

}  // namespace ks::app
