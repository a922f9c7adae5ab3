#include "report/sim_report.hpp"

#include <fmt/format.h>

#include <cmath>

#include "report/counters_report.hpp"
#include "report/report_json.hpp"
#include "report/report_text.hpp"
#include "report/table.hpp"
#include "report/text_format.hpp"
#include "report/why_explain.hpp"
#include "report/why_output.hpp"

namespace ks {

namespace {

double finite_or_zero(double v) {
  return std::isfinite(v) ? v : 0.0;
}

// One step's operations as the roofline counts them (its intensity is operations per byte of a step).
double operations_per_step(const SimulationReport& r) { return r.roofline.intensity * double(r.bytes_per_step); }

}  // namespace

nlohmann::ordered_json to_json(const SimulationReport& r, const SimulationStats& stats, const DeviceInfo* device) {
  nlohmann::ordered_json j = report_head(kSimReportSchema, r.kernel, r.variant, r.backend, r.device);
  j["grid"] = {{"width", r.width}, {"height", r.height}};
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& [name, value] : r.params) params[name] = value;
  j["params"] = std::move(params);
  j["block"] = r.block ? nlohmann::ordered_json{{"x", r.block->x}, {"y", r.block->y}}
                       : nlohmann::ordered_json(nullptr);
  j["steps"] = r.generation;
  j["timings_ms"] = {{"step", to_json(r.step_time)}};
  j["steps_per_second"] = finite_or_zero(r.steps_per_second);
  j["cell_updates_per_second"] = finite_or_zero(r.cell_updates_per_second);
  j["bytes_per_step"] = r.bytes_per_step;
  j["gbps"] = finite_or_zero(r.gbps);
  j["copy_bandwidth_gbps"] = finite_or_zero(r.copy_bandwidth_gbps);
  j["percent_of_copy"] = finite_or_zero(r.percent_of_copy);
  j["occupancy"] = r.occupancy ? to_json(*r.occupancy) : nlohmann::ordered_json(nullptr);
  j["counters"] = report::counters_json(r.counters, operations_per_step(r));
  j["roofline"] = to_json(r.roofline);
  if (stats.population) j["population"] = *stats.population;
  if (stats.total) j["total"] = finite_or_zero(*stats.total);
  j["first_launch_ms"] = optional_ms(r.first_launch_ms);
  j["why"] = report::why_json(report::explain_why(r, device));
  return j;
}

}  // namespace ks

namespace ks::report {

std::string sim_report_text(const SimulationReport& r, const SimulationStats& stats) {
  std::string s = fmt::format("{} (variant {}", r.kernel, r.variant);
  if (r.block) s += ", block " + to_string(*r.block);
  s += ") on " + r.device;
  if (r.backend == Backend::Cuda) s += " via CUDA";
  s +=
      fmt::format("; grid {}x{}; {} step{}\n", r.width, r.height, r.generation, r.generation == 1 ? "" : "s");

  Table t({{"per step"},
           {"min ms", Table::Align::Right},
           {"median ms", Table::Align::Right},
           {"p95 ms", Table::Align::Right},
           {"steps/s", Table::Align::Right},
           {"bytes", Table::Align::Right},
           {"GB/s", Table::Align::Right},
           {"% of copy", Table::Align::Right}});
  t.add_row({"step", format_ms(r.step_time.min_ms), format_ms(r.step_time.median_ms),
             format_ms(r.step_time.p95_ms), fmt::format("{:.0f}", r.steps_per_second),
             format_bytes(r.bytes_per_step), format_gbps(r.gbps),
             format_percent(r.copy_bandwidth_gbps > 0 ? r.percent_of_copy : -1)});
  s += t.render();
  if (r.cell_updates_per_second > 0)
    s += fmt::format("cell updates/s: {:.3g} ({}x{} cells x {:.0f} steps/s)\n", r.cell_updates_per_second, r.width,
                     r.height, r.steps_per_second);
  if (r.copy_bandwidth_gbps > 0)
    s += fmt::format("measured device copy bandwidth: {} GB/s\n", format_gbps(r.copy_bandwidth_gbps));
  RunReport occupancy_only;  // occupancy_line reads nothing else
  occupancy_only.occupancy = r.occupancy;
  if (std::string occ = occupancy_line(occupancy_only); !occ.empty()) s += occ + '\n';
  // "roofline per step: ...": the figures are those of one step.
  if (std::string roof = roofline_line(r.roofline); !roof.empty())
    s += "roofline per step" + roof.substr(std::string("roofline").size()) + '\n';
  if (r.counters) s += counters_text(*r.counters, r.occupancy, operations_per_step(r));
  if (stats.population)
    s += fmt::format("population {} at generation {}\n", *stats.population, stats.generation);
  if (stats.total)
    s += fmt::format("total {} {:.9g} at step {}\n", r.kernel == "heat" ? "heat (sum of u)" : "v (sum of v)",
                     *stats.total, stats.generation);
  return s;
}

}  // namespace ks::report
