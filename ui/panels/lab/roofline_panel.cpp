// Roofline: the lab runs the session kept, as points under the roofs of the backend they ran on (Engine::peaks:
// the GPU's copy bandwidth and FMA peak, or the CPU's measured copy and FMA loops, carried by each report).
// One backend at a time, the newest run's: CPU points under a GPU's roof would say nothing.
#include "panels/lab/roofline_panel.hpp"

#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "panels/lab/lab_sections.hpp"
#include "panels/log_log_plot.hpp"
#include "panels/panel_sections.hpp"
#include "report/counters_report.hpp"
#include "session/session.hpp"

namespace ks::ui::panels {

namespace {

constexpr ImU32 kRoof = IM_COL32(235, 235, 235, 200);

// The roofs of the newest run's backend, as its report measured them.
peaks::ComputePeaks peaks_of_newest(const std::vector<app::LabRun>& runs) {
  if (runs.empty()) return {};
  return runs.back().report.roofline.peaks;
}

}  // namespace

std::string ceiling_sentence(const lab::LabReport& r) {
  const peaks::RooflineFigures& f = r.roofline;
  if (f.ceiling.name.empty() || !(f.memory.gbps > 0)) return {};
  const bool compute_bound = f.ceiling.gops <= f.intensity * f.memory.gbps;
  return fmt::format(
      "{} {} is held against the ceiling of its own operations, {} ({:.0f} GOP/s), and the {} "
      "({:.0f} GB/s); it is {} there and reached {:.0f}% of that roof.",
      r.kernel, r.variant, f.ceiling.name, f.ceiling.gops, f.memory.name, f.memory.gbps,
      compute_bound ? "compute-bound" : "memory-bound", f.percent_of_roof);
}

int draw_roofline(const peaks::ComputePeaks& machine, const std::vector<peaks::RooflinePoint>& points,
                  float height) {
  LogLogPlot plot;
  plot.x_title = "FLOP per byte";
  plot.y_title = "GFLOP/s";
  plot.height = height;
  // One series per kernel (its colour in the legend), each point labelled by its variant.
  std::vector<LogLogSeries> kernels;
  double x0 = 1e9, x1 = 0, y0 = 1e18, y1 = 0;
  int drawn = 0;
  for (const auto& p : points) {
    if (!(p.intensity > 0 && p.gflops > 0)) continue;
    const std::size_t space = p.label.find(' ');
    const std::string kernel = p.label.substr(0, space);
    auto it =
        std::find_if(kernels.begin(), kernels.end(), [&](const LogLogSeries& s) { return s.name == kernel; });
    if (it == kernels.end()) {
      LogLogSeries s;
      s.name = kernel;
      s.colour = series_colour(int(kernels.size()) + 1);  // 0 is the sweep's first variant: keep them apart
      s.line = false;
      kernels.push_back(std::move(s));
      it = kernels.end() - 1;
    }
    it->points.emplace_back(float(p.intensity), float(p.gflops));
    it->labels.push_back(space == std::string::npos ? p.label : p.label.substr(space + 1));
    x0 = std::min(x0, p.intensity), x1 = std::max(x1, p.intensity);
    y0 = std::min(y0, p.gflops), y1 = std::max(y1, p.gflops);
    ++drawn;
  }
  // Every point sits under the roof of its own operations and bytes (peaks.hpp's compute_ceiling and
  // memory_ceiling): one polyline per distinct roof, labelled with its ceilings, so no point is drawn above
  // its own; without such points, the backend's f32 FMA and copy roof.
  std::vector<std::pair<peaks::ComputeCeiling, peaks::MemoryCeiling>> roofs;
  for (const auto& p : points)
    if (!p.ceiling.name.empty() && p.memory.gbps > 0 &&
        std::none_of(roofs.begin(), roofs.end(), [&](const auto& r) {
          return r.first.name == p.ceiling.name && r.second.name == p.memory.name;
        }))
      roofs.emplace_back(p.ceiling, p.memory);
  if (roofs.empty() && machine.memory_gbps > 0 && machine.fma_gflops > 0)
    roofs.emplace_back(peaks::ComputeCeiling{"f32 FMA", machine.fma_gflops},
                       peaks::MemoryCeiling{"copy", machine.memory_gbps});
  // The ranges hold the points and the roofs over them, in whole decades with a decade of air either side.
  if (machine.memory_gbps > 0 || machine.fma_gflops > 0) {
    if (drawn == 0) x0 = 0.1, x1 = 100;
    const double roof_hi =
        machine.fma_gflops > 0 ? machine.fma_gflops : roof_at(machine, x1 * 10);
    y1 = std::max(y1, roof_hi);
    for (const auto& r : roofs) y1 = std::max(y1, r.first.gops);
    if (drawn == 0) y0 = std::max(1e-3, roof_at(machine, x0) / 10);
  }
  if (x1 > 0) {
    plot.x_range = ImVec2(float(std::pow(10, std::floor(std::log10(x0)) - 1)),
                          float(std::pow(10, std::ceil(std::log10(x1)) + 1)));
    plot.y_range = ImVec2(float(std::pow(10, std::floor(std::log10(y0)) - 1)),
                          float(std::pow(10, std::ceil(std::log10(y1)) + 1)));
  }
  for (auto& k : kernels) plot.series.push_back(std::move(k));
  if (!roofs.empty() && plot.x_range) {
    for (const auto& [ceiling, memory] : roofs) {
      // The roof as a polyline in data units: the memory slope up to the ridge, then the ceiling.
      LogLogSeries roof;
      roof.name = roofs.size() == 1 && memory.name == "copy"
                      ? "roof (" + ceiling.name + ")"
                      : "roof (" + ceiling.name + ", " + memory.name + ")";
      roof.colour = kRoof;
      const double a = plot.x_range->x, b = plot.x_range->y, ridge = ceiling.gops / memory.gbps;
      auto at = [&](double x) { return std::min(ceiling.gops, x * memory.gbps); };
      roof.points.emplace_back(float(a), float(at(a)));
      if (ridge > a && ridge < b) roof.points.emplace_back(float(ridge), float(at(ridge)));
      roof.points.emplace_back(float(b), float(at(b)));
      plot.series.insert(plot.series.begin(), std::move(roof));
    }
  } else if (machine.memory_gbps > 0 && plot.x_range) {
    LogLogSeries roof;
    roof.name = "memory roof";
    roof.colour = kRoof;
    const double a = plot.x_range->x, b = plot.x_range->y;
    roof.points = {ImVec2(float(a), float(roof_at(machine, a))),
                   ImVec2(float(b), float(roof_at(machine, b)))};
    plot.series.insert(plot.series.begin(), std::move(roof));
  } else if (machine.fma_gflops > 0 && plot.x_range) {
    LogLogSeries ceiling;
    ceiling.name = "compute ceiling";
    ceiling.colour = kRoof;
    ceiling.points = {ImVec2(plot.x_range->x, float(machine.fma_gflops)),
                      ImVec2(plot.x_range->y, float(machine.fma_gflops))};
    plot.series.insert(plot.series.begin(), std::move(ceiling));
  }
  draw_log_log_plot(plot, "##roofline");
  if (!machine.where.empty()) note_text("roofs of " + machine.where + " (measured at start)");
  if (machine.memory_gbps > 0)
    ImGui::TextDisabled("memory roof %.0f GB/s (copy bandwidth)", machine.memory_gbps);
  else
    note_text("memory roof: not measured yet (the first run measures it)");
  if (machine.fma_gflops > 0)
    ImGui::TextDisabled("compute ceiling %.0f GFLOP/s (f32 FMA peak)", machine.fma_gflops);
  else
    note_text("compute ceiling: not measured yet (the first run measures it)");
  return drawn;
}

RooflineOfRuns roofline_of_runs(const std::vector<app::LabRun>& runs) {
  RooflineOfRuns out;
  out.machine = peaks_of_newest(runs);
  for (const app::LabRun& run : runs) {
    const lab::LabReport& r = run.report;
    if (r.backend != runs.back().report.backend) continue;  // the roof's backend only
    if (r.operation_kind != lab::OperationKind::Flop) {
      if (out.off_the_roof.find(r.kernel) == std::string::npos)
        out.off_the_roof += (out.off_the_roof.empty() ? "" : ", ") + r.kernel;
      continue;
    }
    if (r.cost.bytes == 0 || r.cost.operations == 0 || !(r.gflops > 0)) continue;
    peaks::RooflinePoint p;
    p.label = fmt::format("{} {}", r.kernel, r.variant);
    p.intensity = double(r.cost.operations) / double(r.cost.bytes);
    p.gflops = r.gflops;
    p.gbps = r.gbps;
    p.ceiling = r.roofline.ceiling;
    p.memory = r.roofline.memory;
    out.points.push_back(p);
    // With counters, the same run again at the intensity DRAM saw: right of the model's dot when the caches
    // saved traffic, left of it when the kernel moved more than it must.
    if (r.counters && r.counters->dram_bytes() > 0) {
      p.label += " (DRAM)";
      p.intensity = report::measured_intensity(*r.counters, double(r.cost.operations));
      out.points.push_back(std::move(p));
    }
  }
  return out;
}

int draw_roofline_of_runs(const std::vector<app::LabRun>& runs, float height) {
  const RooflineOfRuns roofline = roofline_of_runs(runs);
  const int drawn = draw_roofline(roofline.machine, roofline.points, height);
  if (!runs.empty()) {
    if (std::string which = ceiling_sentence(runs.back().report); !which.empty()) note_text(which);
  }
  if (!roofline.off_the_roof.empty())
    note_text("Not plotted: " + roofline.off_the_roof +
              " (its cost counts key comparisons, which are no floating-point operations: the f32 FMA ceiling "
              "does not apply; the Lab section gives its comparisons per second and % of the copy bandwidth).");
  return drawn;
}

void draw_roofline_section(app::Session& s, PanelState&) {
  if (s.lab().runs().empty()) note_text("Each lab run adds a point here: its FLOP per byte and achieved GFLOP/s.");
  draw_roofline_of_runs(s.lab().runs());
}

}  // namespace ks::ui::panels
