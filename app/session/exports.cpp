#include "session/exports.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <system_error>

#include <fmt/format.h>

#include "report/report_json.hpp"
#include "core/error.hpp"
#include "io/atomic_file.hpp"

namespace ks::app {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace {

std::string lower_extension(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// The image under a hidden name beside the target, keeping its extension (save_image picks the format from it).
fs::path staging_path_for(const fs::path& target) {
  std::string name = ".";
  name += target.filename().string();
  name += ".export-";
  name += std::to_string(::getpid());
  name += target.extension().string();
  return target.parent_path() / name;
}

std::string format_of(const fs::path& path, const Image& saved, const SaveOptions& options) {
  const std::string ext = lower_extension(path);
  if (ext == ".png")
    return fmt::format("png{}", options.png_bit_depth.value_or(saved.type() == ElemType::U16 ? 16 : 8));
  return ext.empty() ? std::string() : ext.substr(1);
}

}  // namespace

fs::path sidecar_path_for(const fs::path& image_path) {
  fs::path p = image_path;
  p += ".json";
  return p;
}

json result_sidecar(const ResultProvenance& p, const fs::path& image_path, const Image& saved) {
  json j;
  j["schema"] = "kernelscope.export/1";
  j["kernelscope_version"] = KS_VERSION;
  j["input"] = {{"file", p.input}, {"image", to_json(p.input_shape)}};
  j["output"] = {{"file", image_path.filename().string()}, {"image", to_json(saved.shape())}};
  j["run"] = to_json(p.report);
  const TimingSummary& h = p.history;
  j["history"] = {{"runs", h.runs},
                  {"kernel_ms", {{"min", h.kernel.min_ms}, {"median", h.kernel.median_ms}, {"p95", h.kernel.p95_ms}}},
                  {"upload_ms", h.median_upload_ms},
                  {"download_ms", h.median_download_ms},
                  {"display_ms", h.median_display_ms >= 0 ? json(h.median_display_ms) : json(nullptr)}};
  if (p.cpu_reference) {
    const CpuReference& c = *p.cpu_reference;
    const double run_ms = p.report.kernel_time.median_ms;
    j["cpu_reference"] = {{"median_ms", c.median_ms},
                          {"speedup", run_ms > 0 ? json(c.median_ms / run_ms) : json(nullptr)},
                          {"max_abs_difference", c.max_abs_difference},
                          {"identical", c.identical}};
  } else {
    j["cpu_reference"] = nullptr;
  }
  j["display_path"] = p.display_path;
  return j;
}

void export_result(const Image& image, const fs::path& path, const SaveOptions& options,
                   const ResultProvenance& provenance) {
  json sidecar = result_sidecar(provenance, path, image);
  sidecar["output"]["format"] = format_of(path, image, options);
  const fs::path staging = staging_path_for(path);
  try {
    save_image(image, staging, options);
  } catch (const Error& e) {
    // save_image names the file it was given; the user chose `path`.
    throw Error(e.kind(), replace_all(e.what(), staging.string(), path.string()), e.hint());
  }
  try {
    write_text_atomically(sidecar_path_for(path), sidecar.dump(2) + "\n");
    std::error_code ec;
    fs::rename(staging, path, ec);
    if (ec)
      throw_io(fmt::format("could not write '{}': {}", path.string(), ec.message()), "check the path and the disk");
  } catch (...) {
    std::error_code ignored;
    fs::remove(staging, ignored);
    throw;
  }
}

void export_timings(const fs::path& path, const std::vector<TimingEntry>& entries, const std::string& device,
                    double copy_bandwidth_gbps) {
  const std::string ext = lower_extension(path);
  if (ext == ".csv") {
    write_text_atomically(path, timing_csv(entries));
  } else if (ext == ".json") {
    write_text_atomically(path, timing_json(entries, device, copy_bandwidth_gbps).dump(2) + "\n");
  } else {
    throw_usage(fmt::format("cannot export timings to '{}': the file name must end in .csv or .json", path.string()),
                "choose timings.csv or timings.json");
  }
}

}  // namespace ks::app
