#include "panels/lab/lab_viewport.hpp"

#include <fmt/format.h>
#include <imgui.h>
#include <imgui_internal.h>  // BringWindowToDisplayBack

#include <algorithm>

#include "panels/lab/lab_sections.hpp"
#include "panels/lab/roofline_panel.hpp"
#include "panels/panel_sections.hpp"
#include "report/text_format.hpp"
#include "session/lab/lab_document.hpp"
#include "session/session.hpp"

namespace ks::ui {

namespace {

constexpr float kMinWidth = 240, kMinHeight = 180;  // below this a chart says nothing: leave the area empty
constexpr float kTimelineShare = 0.35f;             // of the chart's height, when the run has a timeline

// "Last run: vecadd vector4 at 16777216: 0.84 ms, 480 GB/s (62% of the copy bandwidth)".
std::string last_run_line(const lab::LabReport& r) {
  std::string line = fmt::format("Last run: {} {} at {}: {} ms, {:.3g} GB/s", r.kernel, r.variant,
                                 lab::to_string(r.size), report::format_ms(r.kernel_time.median_ms), r.gbps);
  if (r.percent_of_copy > 0) line += fmt::format(" ({:.0f}% of the copy bandwidth)", r.percent_of_copy);
  if (r.check.checked) line += r.check.agrees ? ", checked: agrees" : ", checked: DIFFERS";
  return line;
}

}  // namespace

bool lab_view_wanted(const app::Session& session) {
  return session.in_lab() && !session.lab().takes_image() && !session.lab().result_image();
}

LabViewDrawn draw_lab_view(const app::Session& session, const std::array<float, 4>& area) {
  LabViewDrawn drawn;
  if (!lab_view_wanted(session)) return drawn;
  const float width = area[2] - area[0], height = area[3] - area[1];
  if (width < kMinWidth || height < kMinHeight) return drawn;
  const app::LabDocument& lab = session.lab();
  ImGui::SetNextWindowPos(ImVec2(area[0], area[1]), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width, height), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.6f);
  // Behind the other windows (the Source and Topology windows may stand over it), never taking the keyboard.
  ImGui::Begin("##lab-view", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoFocusOnAppearing |
                   ImGuiWindowFlags_NoNav);
  ImGui::BringWindowToDisplayBack(ImGui::GetCurrentWindow());  // made after them, it would otherwise come first
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(fmt::format("{} ({}) works on arrays, not an image: there is no picture to show. Here is "
                                     "where its runs stand against what this machine can do.",
                                     lab.info().title, lab.spec().id)
                             .c_str());
  const auto& runs = lab.runs();
  const app::LabRun* newest = nullptr;
  for (const app::LabRun& run : runs)
    if (run.report.kernel == lab.spec().id) newest = &run;
  if (!newest)
    panels::note_text("Press Run in the Lab section: each run is timed and becomes a point on this roofline (its "
                      "FLOP per byte against its GFLOP/s); another variant or size adds another point.");
  else
    ImGui::TextUnformatted(last_run_line(newest->report).c_str());
  ImGui::Spacing();
  const bool timeline = newest && !newest->report.timeline.empty();
  // Room for the lines under the chart (roofs, ceiling sentence): about six lines of text.
  const float below = 6 * ImGui::GetTextLineHeightWithSpacing();
  const float chart = std::max(120.0f, ImGui::GetContentRegionAvail().y - below);
  drawn.points = panels::draw_roofline_of_runs(runs, timeline ? chart * (1 - kTimelineShare) : chart);
  if (timeline) {
    ImGui::Spacing();
    panels::draw_lab_timeline(newest->report);
  }
  ImGui::PopTextWrapPos();
  drawn.rect = {area[0], area[1], area[0] + width, area[1] + height};
  ImGui::End();
  return drawn;
}

}  // namespace ks::ui
