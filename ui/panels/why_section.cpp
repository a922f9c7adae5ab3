// Why: the pitfalls of the kernel on screen (a stencil's, a lab kernel's or a simulation's last run), each a
// sentence with its numbers and the variant, block or option that fixes it (app/report/why_explain.hpp).
// The explanation is worked out once per run, when its report arrives (app::WhyCache), not on every frame.
#include <imgui.h>

#include "panels/panel_sections.hpp"
#include "panels/panels.hpp"
#include "session/session.hpp"

namespace ks::ui::panels {

namespace {

void draw_findings(const std::vector<report::WhyFinding>& findings) {
  for (std::size_t i = 0; i < findings.size(); ++i) {
    if (i) ImGui::Separator();
    warning_text(findings[i].finding);
    wrapped_text("Fix: " + findings[i].fix);
  }
}

}  // namespace

void draw_why_section(app::Session& s, PanelState& st) {
  const app::WhyExplanation* e = st.why.current(s);
  if (!e) {
    note_text("No run yet: the pitfalls of the kernel's last run show here.");
    return;
  }
  if (e->findings.empty()) wrapped_text("Nothing stands out in what this run measured.");
  draw_findings(e->findings);
  if (!e->modelled.empty()) {
    ImGui::Separator();
    note_text(e->modelled_heading);
    for (const report::WhyFinding& f : e->modelled) {
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
