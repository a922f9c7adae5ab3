#include "report/lab_report_json.hpp"

#include <fmt/format.h>

#include <cmath>

#include "report/counters_report.hpp"
#include "report/report_json.hpp"
#include "report/why_explain.hpp"
#include "report/why_output.hpp"

namespace ks {

namespace {

double finite(double v) { return std::isfinite(v) ? v : 0.0; }

nlohmann::ordered_json optional_number(const std::optional<double>& v) {
  return v && std::isfinite(*v) ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json bars_json(const std::vector<lab::TimelineBar>& bars) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const auto& b : bars)
    a.push_back({{"lane", b.lane},
                 {"stream", b.stream},
                 {"chunk", b.chunk},
                 {"start_ms", finite(b.start_ms)},
                 {"end_ms", finite(b.end_ms)},
                 {"bytes", b.bytes}});
  return a;
}

nlohmann::ordered_json launch_json(const lab::LaunchArithmetic& a) {
  return {{"kernel_name", a.kernel_name},
          {"grid", {a.grid_x, a.grid_y}},
          {"block", {a.block.x, a.block.y}},
          {"blocks", a.blocks},
          {"threads_per_block", a.threads_per_block},
          {"total_threads", a.total_threads},
          {"work_items", a.work_items},
          {"idle_threads", a.idle_threads},
          {"items_per_thread", finite(a.items_per_thread)},
          {"blocks_per_sm", a.blocks_per_sm},
          {"sms", a.sms},
          {"blocks_per_wave", a.slots},
          {"waves", finite(a.waves)},
          {"full_waves", a.full_waves},
          {"tail_wave_occupancy", finite(a.tail_wave_occupancy)}};
}

}  // namespace

nlohmann::ordered_json to_json(const lab::LabReport& r, const DeviceInfo* device) {
  nlohmann::ordered_json j = report_head(kLabReportSchema, r.kernel, r.variant, r.backend, r.device);
  nlohmann::ordered_json dims = nlohmann::ordered_json::array();
  for (int i = 0; i < r.size.rank(); ++i) dims.push_back(r.size.dims[std::size_t(i)]);
  j["size"] = {{"form", lab::to_string(r.size.form)},
               {"dims", std::move(dims)},
               {"text", lab::to_string(r.size)},
               {"elements", r.size.elements()}};
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& [name, value] : r.params) params[name] = value;
  j["params"] = std::move(params);
  j["block"] = r.block ? nlohmann::ordered_json{{"x", r.block->x}, {"y", r.block->y}} : nlohmann::ordered_json(nullptr);
  j["host"] = lab::to_string(r.host);
  j["streams"] = r.streams;
  j["chunks"] = r.chunks;
  j["seed"] = r.seed;
  j["warmup"] = r.warmup;
  j["timings_ms"] = {{"upload", to_json(r.upload_time)},
                     {"kernel", to_json(r.kernel_time)},
                     {"download", to_json(r.download_time)},
                     {"end_to_end", to_json(r.end_to_end_time)},
                     {"serial_sum", finite(r.serial_sum_ms)},
                     {"overlap_ratio", finite(r.overlap_ratio)}};
  j["streamed_matches_serial"] =
      r.streamed_matches_serial ? nlohmann::ordered_json(*r.streamed_matches_serial) : nlohmann::ordered_json(nullptr);
  const bool flops = r.operation_kind == lab::OperationKind::Flop;
  auto if_flops = [&](double v) { return flops ? nlohmann::ordered_json(finite(v)) : nlohmann::ordered_json(nullptr); };
  auto if_comparisons = [&](double v) {
    return flops ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(finite(v));
  };
  j["cost"] = {{"bytes", r.cost.bytes}, {"operations", r.cost.operations}, {"operation_kind", lab::to_string(r.operation_kind)}};
  j["gbps"] = finite(r.gbps);
  j["gflops"] = if_flops(r.gflops);
  j["giga_comparisons_per_s"] = if_comparisons(r.giga_comparisons_per_s);
  j["upload_gbps"] = finite(r.upload_gbps);
  j["download_gbps"] = finite(r.download_gbps);
  j["copy_bandwidth_gbps"] = finite(r.copy_bandwidth_gbps);
  j["percent_of_copy"] = finite(r.percent_of_copy);
  j["arithmetic_intensity"] = if_flops(r.arithmetic_intensity);
  j["comparisons_per_byte"] = if_comparisons(r.comparisons_per_byte);
  j["peak_gflops"] = optional_number(r.peak_gflops);
  j["percent_of_peak_flops"] = optional_number(r.percent_of_peak_flops);
  j["roofline"] = to_json(r.roofline);
  j["cpu_reference_ms"] = finite(r.cpu_reference_ms);
  j["check"] = {{"checked", r.check.checked},
                {"agrees", r.check.agrees},
                {"max_abs_error", finite(r.check.max_abs_error)},
                {"max_rel_error", finite(r.check.max_rel_error)},
                {"bound", finite(r.check.bound)},
                {"detail", r.check.detail}};
  nlohmann::ordered_json facts = nlohmann::ordered_json::array();
  for (const auto& f : r.facts) facts.push_back({{"name", f.name}, {"value", f.value}, {"number", optional_number(f.number)}});
  j["facts"] = std::move(facts);
  nlohmann::ordered_json series = nlohmann::ordered_json::array();
  for (const auto& s : r.series) {
    nlohmann::ordered_json values = nlohmann::ordered_json::array();
    for (double v : s.values) values.push_back(finite(v));
    series.push_back({{"name", s.name}, {"x_label", s.x_label}, {"values", std::move(values)}});
  }
  j["series"] = std::move(series);
  j["notes"] = r.notes;
  j["launch"] = r.launch ? launch_json(*r.launch) : nlohmann::ordered_json(nullptr);
  j["occupancy"] = r.occupancy ? to_json(*r.occupancy) : nlohmann::ordered_json(nullptr);
  j["counters"] = report::counters_json(r.counters, double(r.cost.operations));
  j["timeline"] = bars_json(r.timeline);
  j["serial_timeline"] = bars_json(r.serial_timeline);
  j["first_launch_ms"] = optional_ms(r.first_launch_ms);
  j["why"] = report::why_json(report::explain_why(r, device));
  return j;
}

std::string lab_csv(const lab::LabReport& r) {
  std::string out = "run,lane,stream,chunk,start_ms,end_ms,ms,bytes\n";
  const std::pair<const char*, const TimingStats*> medians[] = {
      {"upload", &r.upload_time}, {"kernel", &r.kernel_time}, {"download", &r.download_time},
      {"end_to_end", &r.end_to_end_time}};
  for (const auto& [lane, stats] : medians) out += fmt::format("median,{},,,,,{},\n", lane, finite(stats->median_ms));
  auto bars = [&](const char* run, const std::vector<lab::TimelineBar>& list) {
    for (const auto& b : list)
      out += fmt::format("{},{},{},{},{},{},{},{}\n", run, b.lane, b.stream, b.chunk, finite(b.start_ms),
                         finite(b.end_ms), finite(b.end_ms - b.start_ms), b.bytes);
  };
  bars(r.streams > 1 ? "streamed" : "serial", r.timeline);
  bars("serial", r.serial_timeline);
  return out;
}

}  // namespace ks
