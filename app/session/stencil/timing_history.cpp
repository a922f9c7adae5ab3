#include "session/stencil/timing_history.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "report/report_json.hpp"
#include "report/text_format.hpp"

namespace ks::app {

namespace {

std::string params_line(const std::vector<std::pair<std::string, std::string>>& params) {
  std::string s;
  for (const auto& [name, value] : params) s += (s.empty() ? "" : " ") + name + "=" + value;
  return s;
}


// Empty, not 0, for a figure that does not exist (no upload on the CPU, nothing drawn yet).
std::string csv_ms(double v, bool present) { return present ? fmt::format("{:.6g}", v) : std::string(); }

double median_of(std::vector<double> v) { return TimingStats::of(std::move(v)).median_ms; }

}  // namespace

TimingEntry timing_entry_of(const RunReport& r, std::uint64_t run, double at_s, std::uint64_t input) {
  TimingEntry e;
  e.run = run;
  e.input = input;
  e.at_s = at_s;
  e.kernel = r.kernel;
  e.variant = r.variant;
  e.backend = r.backend;
  e.device = r.device;
  e.block = r.block;
  e.shape = r.shape;
  e.params = params_line(r.params);
  e.launches = r.kernel_time;
  e.upload_ms = r.upload_ms;
  e.download_ms = r.download_ms;
  e.gbps = r.gbps;
  e.percent_of_copy = r.percent_of_copy;
  return e;
}

void TimingHistory::add(TimingEntry entry) {
  auto& list = entries_[entry.kernel];
  list.push_back(std::move(entry));
  while (list.size() > limit_) list.pop_front();
}

void TimingHistory::set_display_ms(std::uint64_t run, double ms) {
  for (auto& [kernel, list] : entries_)
    for (auto it = list.rbegin(); it != list.rend(); ++it)
      if (it->run == run) {
        it->display_ms = ms;
        return;
      }
}

const std::deque<TimingEntry>& TimingHistory::of(const std::string& kernel) const {
  static const std::deque<TimingEntry> none;
  auto it = entries_.find(kernel);
  return it == entries_.end() ? none : it->second;
}

std::string series_key(const TimingEntry& e) {
  return fmt::format("{}|{}|{}|{}|{}|{}x{}x{} {}|{}", e.input, e.kernel, e.variant, to_string(e.backend),
                     e.block ? to_string(*e.block) : std::string(), e.shape.width, e.shape.height, e.shape.channels,
                     to_string(e.shape.type), e.params);
}

std::vector<TimingEntry> TimingHistory::series(const std::string& kernel) const {
  const auto& list = of(kernel);
  if (list.empty()) return {};
  const std::string key = series_key(list.back());
  std::vector<TimingEntry> out;
  for (const auto& e : list)
    if (series_key(e) == key) out.push_back(e);
  return out;
}

TimingSummary TimingHistory::summary(const std::string& kernel) const {
  TimingSummary s;
  const std::vector<TimingEntry> list = series(kernel);
  if (list.empty()) return s;
  std::vector<double> kernel_ms, upload, download, display;
  for (const auto& e : list) {
    kernel_ms.push_back(e.kernel_ms());
    upload.push_back(e.upload_ms);
    download.push_back(e.download_ms);
    if (e.display_ms >= 0) display.push_back(e.display_ms);
  }
  s.runs = int(list.size());
  s.kernel = TimingStats::of(std::move(kernel_ms));
  s.last_gbps = list.back().gbps;
  s.last_percent_of_copy = list.back().percent_of_copy;
  s.median_upload_ms = median_of(std::move(upload));
  s.median_download_ms = median_of(std::move(download));
  if (!display.empty()) s.median_display_ms = median_of(std::move(display));
  return s;
}

std::vector<TimingEntry> TimingHistory::all() const {
  std::vector<TimingEntry> out;
  for (const auto& [kernel, list] : entries_) out.insert(out.end(), list.begin(), list.end());
  std::sort(out.begin(), out.end(), [](const TimingEntry& a, const TimingEntry& b) { return a.run < b.run; });
  return out;
}

std::string timing_csv(const std::vector<TimingEntry>& entries) {
  std::string out =
      "run,seconds,kernel,variant,backend,device,block,width,height,channels,type,params,launches,kernel_min_ms,"
      "kernel_median_ms,kernel_p95_ms,upload_ms,download_ms,display_ms,gbps,percent_of_copy\n";
  for (const auto& e : entries) {
    const bool gpu = e.backend == Backend::Cuda;
    out += fmt::format("{},{:.3f},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", e.run, e.at_s,
                       report::csv_field(e.kernel), report::csv_field(e.variant), to_string(e.backend), report::csv_field(e.device),
                       e.block ? to_string(*e.block) : std::string(), e.shape.width, e.shape.height,
                       e.shape.channels, to_string(e.shape.type), report::csv_field(e.params), e.launches.count,
                       csv_ms(e.launches.min_ms, true), csv_ms(e.launches.median_ms, true),
                       csv_ms(e.launches.p95_ms, true), csv_ms(e.upload_ms, gpu), csv_ms(e.download_ms, gpu),
                       csv_ms(e.display_ms, e.display_ms >= 0), csv_ms(e.gbps, e.gbps > 0),
                       csv_ms(e.percent_of_copy, e.percent_of_copy > 0));
  }
  return out;
}

nlohmann::ordered_json timing_json(const std::vector<TimingEntry>& entries, const std::string& device,
                                   double copy_bandwidth_gbps) {
  using json = nlohmann::ordered_json;
  json runs = json::array();
  for (const auto& e : entries) {
    const bool gpu = e.backend == Backend::Cuda;
    json j;
    j["run"] = e.run;
    j["at_s"] = e.at_s;
    j["kernel"] = e.kernel;
    j["variant"] = e.variant;
    j["backend"] = to_string(e.backend);
    j["device"] = e.device;
    j["block"] = e.block ? json{{"x", e.block->x}, {"y", e.block->y}} : json(nullptr);
    j["image"] = to_json(e.shape);
    j["params"] = e.params;
    j["kernel_ms"] = to_json(e.launches);
    j["upload_ms"] = gpu ? json(e.upload_ms) : json(nullptr);
    j["download_ms"] = gpu ? json(e.download_ms) : json(nullptr);
    j["display_ms"] = e.display_ms >= 0 ? json(e.display_ms) : json(nullptr);
    j["gbps"] = e.gbps;
    j["percent_of_copy"] = e.percent_of_copy > 0 ? json(e.percent_of_copy) : json(nullptr);
    runs.push_back(std::move(j));
  }
  json out;
  out["schema"] = "kernelscope.timings/1";
  out["kernelscope_version"] = KS_VERSION;
  out["device"] = device;
  out["copy_bandwidth_gbps"] = copy_bandwidth_gbps > 0 ? json(copy_bandwidth_gbps) : json(nullptr);
  out["runs"] = std::move(runs);
  return out;
}

}  // namespace ks::app
