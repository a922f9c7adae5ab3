// Why: the pitfalls of the kernel on screen (a stencil's, a lab kernel's or a simulation's last run), each a
// sentence with its numbers and the variant, block or option that fixes it (app/report/why_explain.hpp).
// Worked out from the last report on each frame: a few microseconds of arithmetic, so the text follows a run
// the moment its report arrives.
#include <fmt/format.h>
#include <imgui.h>

#include <optional>
#include <vector>

#include "core/device_models.hpp"
#include "panels/panel_sections.hpp"
#include "report/why_explain.hpp"
#include "session/lab/lab_document.hpp"
#include "session/launch/launch_picture.hpp"
#include "session/session.hpp"
#include "session/simulation/simulation_runner.hpp"

namespace ks::ui::panels {

namespace {

struct Explained {
  std::vector<report::WhyFinding> findings;
  bool counters = false;
};

// The simulation's report with the step times the Timing section shows (the report itself was made when the
// simulation started; its steps go on).
std::optional<Explained> explain_simulation(const app::SimulationRunner& sim, const DeviceInfo* device) {
  if (!sim.report()) return std::nullopt;
  SimulationReport r = *sim.report();
  const TimingStats& steps = sim.timing().stats;
  if (steps.count == 0) return std::nullopt;
  r.step_time = steps;
  r.roofline = roofline_figures(r.roofline.mix, r.bytes_per_step, steps.median_ms, r.roofline.peaks);
  return Explained{report::explain_why(r, device), r.counters.has_value()};
}

std::optional<Explained> explain_current(app::Session& s) {
  const DeviceInfo* device = s.device().cuda ? &s.device().info : nullptr;
  if (s.simulating()) return explain_simulation(s.simulation(), device);
  if (s.in_lab()) {
    const auto& run = s.lab().last_run();
    if (!run) return std::nullopt;
    return Explained{report::explain_why(run->report, device), run->report.counters.has_value()};
  }
  const auto& r = s.last_report();
  if (!r) return std::nullopt;
  return Explained{report::explain_why(*r, device), r->counters.has_value()};
}

// On the CPU backend with a device model (the Launch section's), the launch pitfalls of the CUDA variant the
// model pictures: what the occupancy arithmetic and the grid can tell without a GPU.
std::vector<report::WhyFinding> modelled_launch(app::Session& s, std::string& heading) {
  if (s.device_model().empty() || s.device().cuda) return {};
  const app::LaunchPicture p = s.launch_picture();
  if (!p.model || !p.geometry) return {};
  const DeviceInfo& model = device_model(s.device_model()).limits;
  report::WhyInput in;
  in.family = s.simulating() ? "simulation" : "stencil";
  in.kernel = s.kernel().id;
  in.variant = p.variant;
  in.backend = Backend::Cuda;
  in.block = p.geometry->block;
  in.occupancy = p.occupancy;
  in.device = model;
  if (p.occupancy)
    in.fill = report::WhyLaunchFill{p.geometry->blocks(), model.sm_count, p.occupancy->active_blocks_per_sm};
  heading = fmt::format("The {} variant's launch on {}, modelled (no GPU here):", p.variant, p.device_name);
  return report::explain_why(in);
}

}  // namespace

void draw_why_section(app::Session& s, PanelState&) {
  const std::optional<Explained> e = explain_current(s);
  if (!e) {
    note_text("No run yet: the pitfalls of the kernel's last run show here.");
    return;
  }
  if (e->findings.empty()) wrapped_text("Nothing stands out in what this run measured.");
  for (std::size_t i = 0; i < e->findings.size(); ++i) {
    const report::WhyFinding& f = e->findings[i];
    if (i) ImGui::Separator();
    warning_text(f.finding);
    wrapped_text("Fix: " + f.fix);
  }
  std::string heading;
  if (const auto modelled = modelled_launch(s, heading); !modelled.empty()) {
    ImGui::Separator();
    note_text(heading);
    for (const report::WhyFinding& f : modelled) {
      warning_text(f.finding);
      wrapped_text("Fix: " + f.fix);
    }
  }
  if (!e->counters)
    note_text(
        "No hardware counters for this run: coalescing, bank conflicts, achieved occupancy and divergence "
        "were not measured.");
  ImGui::SameLine();
  help_marker(
      "Each finding is one pitfall of the last run, with its numbers and what in kernelscope fixes it. "
      "The thresholds and their reasons: app/report/why_thresholds.hpp. `run`, `lab` and `sim` print the "
      "same findings, and every report JSON lists them under \"why\".");
}

}  // namespace ks::ui::panels
