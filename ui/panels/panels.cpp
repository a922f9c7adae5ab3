// The sidebar at the viewport's right edge with the sections, the job indicator and the pixel inspector.
#include "panels/panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "panels/lab_sections.hpp"
#include "panels/panel_sections.hpp"
#include "panels/playlist_overlay.hpp"
#include "panels/simulation_section.hpp"
#include "session/session.hpp"
#include "session/topology_document.hpp"

namespace ks::ui {

namespace {

// Work shorter than this finishes before anyone could read an indicator; longer work shows one.
constexpr double kIndicatorAfterS = 0.05;
constexpr float kMargin = 10.0f;

constexpr ImGuiWindowFlags kOverlay = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                      ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;

void section(const char* title, bool& open, app::Session& s, PanelState& st,
             void (*draw)(app::Session&, PanelState&)) {
  ImGui::SetNextItemOpen(open, ImGuiCond_Always);
  open = ImGui::CollapsingHeader(title);
  if (open) {
    ImGui::PushID(title);
    draw(s, st);
    ImGui::PopID();
    ImGui::Spacing();
  }
}

// Bottom left: what the worker does, how far it is, and a way to stop it.
void draw_job_indicator(app::Session& s) {
  const app::Worker::Status job = s.job_status();
  if (!job.busy || job.label.empty() || job.elapsed_s < kIndicatorAfterS) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(kMargin, io.DisplaySize.y - kMargin), ImGuiCond_Always, ImVec2(0, 1));
  ImGui::SetNextWindowBgAlpha(0.85f);
  ImGui::Begin("##job", nullptr, kOverlay);
  ImGui::TextUnformatted(job.label.c_str());
  if (job.fraction >= 0) {
    ImGui::ProgressBar(float(job.fraction), ImVec2(260, 0));
  } else {
    // No fraction to show: a bar that sweeps back and forth says "working" without claiming a figure.
    const float t = float(std::fmod(ImGui::GetTime(), 2.0));
    ImGui::ProgressBar(t < 1 ? t : 2 - t, ImVec2(260, 0), "");
  }
  if (!job.detail.empty()) ImGui::TextDisabled("%s", job.detail.c_str());
  ImGui::TextDisabled("%.1f s%s", job.elapsed_s, job.pending ? " (more queued)" : "");
  ImGui::SameLine();
  if (job.cancel_requested) {
    ImGui::TextDisabled("stopping...");
  } else if (ImGui::SmallButton("Cancel")) {
    s.cancel();
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("A sweep stops before its next block shape; a kernel run finishes and its result is dropped");
  ImGui::End();
}

// Bottom left, above the job indicator: the pixel under the cursor. It takes no input, so it never blocks panning.
void draw_inspector(const PanelState& st, bool job_shown) {
  if (!st.probe || !st.probe->inside) return;
  const ImGuiIO& io = ImGui::GetIO();
  const float y = io.DisplaySize.y - kMargin - (job_shown ? 90.0f : 0.0f);
  ImGui::SetNextWindowPos(ImVec2(kMargin, y), ImGuiCond_Always, ImVec2(0, 1));
  ImGui::SetNextWindowBgAlpha(0.75f);
  ImGui::Begin("##inspector", nullptr, kOverlay | ImGuiWindowFlags_NoInputs);
  ImGui::TextUnformatted(format_probe(*st.probe).c_str());
  ImGui::End();
}

}  // namespace

float panels_width(const PanelState& state, float viewport_width) {
  if (!state.visible) return 0;
  return std::max(0.0f, std::min(state.sidebar_width * state.text_scale, viewport_width * 0.6f));
}

ViewState fit_beside_panels(const ViewState& view, Size2 image, Size2 framebuffer, const PanelState& state,
                            double device_pixel_ratio) {
  const double logical_width = framebuffer.width / device_pixel_ratio;
  int covered = int(panels_width(state, float(logical_width)) * device_pixel_ratio);
  if (framebuffer.width - covered < framebuffer.width / 3) covered = 0;
  ViewState fitted = fit(view, image, {framebuffer.width - covered, framebuffer.height});
  fitted.center_x += float(covered / 2.0 / fitted.zoom);
  return fitted;
}

void draw_panels(app::Session& s, PanelState& st) {
  st.buttons.rects.clear();  // those drawn in this frame come back
  st.topology.buttons.rects.clear();
  follow_output(s, st);
  const app::Worker::Status job = s.job_status();
  draw_job_indicator(s);
  draw_inspector(st, job.busy && job.elapsed_s >= kIndicatorAfterS);
  if (st.topology.open)  // its own window, left of the sidebar (ui/panels/topology_panel.cpp)
    draw_topology_panel(s.topology(), st.topology, panels_width(st, ImGui::GetIO().DisplaySize.x));
  if (st.playlist)
    if (auto clicked = draw_playlist_overlay(*st.playlist, panels_width(st, ImGui::GetIO().DisplaySize.x)))
      st.playlist_clicked = clicked;
  if (!st.visible) return;

  const ImGuiIO& io = ImGui::GetIO();
  const float w = panels_width(st, io.DisplaySize.x);
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - w, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(w, io.DisplaySize.y), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.92f);
  ImGui::Begin("kernelscope", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoTitleBar);
  ImGui::PushItemWidth(-ImGui::GetFontSize() * 9);  // room for the labels at the right ("neighbours (?)")
  section("Kernel", st.kernel_open, s, st, panels::draw_kernel_section);
  if (s.simulating()) section("Simulation", st.simulation_open, s, st, panels::draw_simulation_section);
  if (s.in_lab()) section("Lab", st.lab_open, s, st, panels::draw_lab_section);
  if (!s.in_lab()) section("Launch", st.launch_open, s, st, panels::draw_launch_section);  // Lab: in its report
  section("Timing", st.timing_open, s, st, panels::draw_timing_section);
  if (s.in_lab()) section("Roofline", st.roofline_open, s, st, panels::draw_roofline_section);
  section("Device", st.device_open, s, st, panels::draw_device_section);
  if (st.view) section("View", st.view_open, s, st, panels::draw_view_section);
  section("Source", st.source_open, s, st, panels::draw_source_section);
  ImGui::PopItemWidth();
  ImGui::End();
  if (st.source_open)  // its own window, left of the sidebar: code needs width (ui/panels/source_section.cpp)
    panels::draw_source_window(s, st, w);
}

}  // namespace ks::ui
