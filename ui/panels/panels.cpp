// The sidebar at the viewport's right edge with the sections, the job indicator and the pixel inspector.
#include "panels/panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "panels/lab/lab_sections.hpp"
#include "panels/lab/lab_viewport.hpp"
#include "panels/panel_sections.hpp"
#include "panels/playlist/playlist_overlay.hpp"
#include "panels/simulation/simulation_section.hpp"
#include "session/session.hpp"
#include "session/topology/topology_document.hpp"

namespace ks::ui {

namespace {

// Work shorter than this finishes before anyone could read an indicator; longer work shows one.
constexpr double kIndicatorAfterS = 0.05;
constexpr float kMargin = 10.0f;
constexpr float kJobBoxHeight = 90.0f;  // the job indicator at the bottom left, which the inspector stands above

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

// Bottom left, above the job indicator and a playlist's caption (`bottom`: logical pixels): the pixel under the
// cursor, its line wrapped to the area beside the sidebar (with a presenter's text size it ran under it). It takes
// no input, so it never blocks panning.
void draw_inspector(PanelState& st, float bottom) {
  st.inspector_rect = {};
  if (!st.probe || !st.probe->inside) return;
  const float display_width = ImGui::GetIO().DisplaySize.x;
  const float free_width = display_width - panels_width(st, display_width);
  const float wrap = std::max(free_width - 2 * kMargin - 2 * ImGui::GetStyle().WindowPadding.x,
                              8 * ImGui::GetTextLineHeight());
  ImGui::SetNextWindowPos(ImVec2(kMargin, bottom), ImGuiCond_Always, ImVec2(0, 1));
  ImGui::SetNextWindowBgAlpha(0.75f);
  ImGui::Begin("##inspector", nullptr, kOverlay | ImGuiWindowFlags_NoInputs);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
  ImGui::TextUnformatted(format_probe(*st.probe).c_str());
  ImGui::PopTextWrapPos();
  const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  st.inspector_rect = {at.x, at.y, at.x + size.x, at.y + size.y};
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

namespace {

// A lab kernel of arrays has no image: its roofline fills the free part of the image area instead
// (panels/lab/lab_viewport.hpp), below a playlist's step list, above its caption and the job indicator.
void draw_lab_view_in_free_area(const app::Session& s, PanelState& st, bool job_box) {
  const ImGuiIO& io = ImGui::GetIO();
  std::array<float, 4> area = {kMargin, kMargin, io.DisplaySize.x - panels_width(st, io.DisplaySize.x) - kMargin,
                               io.DisplaySize.y - kMargin - (job_box ? kJobBoxHeight : 0.0f)};
  if (st.playlist_list_rect[3] > 0) area[1] = st.playlist_list_rect[3] + kMargin;
  if (st.caption_rect[3] > 0) area[3] = std::min(area[3], st.caption_rect[1] - kMargin);
  const LabViewDrawn drawn = draw_lab_view(s, area);
  st.lab_view_rect = drawn.rect;
  st.lab_view_points = drawn.points;
}

}  // namespace

void draw_panels(app::Session& s, PanelState& st) {
  st.buttons.rects.clear();  // those drawn in this frame come back
  st.topology.buttons.rects.clear();
  follow_output(s, st);
  // The pointer over a panel or the Topology window shows no pixel: the probe was taken by the mouse event,
  // before this frame found a window under the pointer (the one that had just moved there).
  if (ImGui::GetIO().WantCaptureMouse) st.probe.reset();
  const app::Worker::Status job = s.job_status();
  draw_job_indicator(s);
  if (st.topology.open)  // its own window, left of the sidebar (ui/panels/topology/topology_panel.cpp)
    draw_topology_panel(s.topology(), st.topology, panels_width(st, ImGui::GetIO().DisplaySize.x));
  float inspector_bottom = ImGui::GetIO().DisplaySize.y - kMargin;
  if (job.busy && job.elapsed_s >= kIndicatorAfterS) inspector_bottom -= kJobBoxHeight;
  st.caption_rect = {};
  st.playlist_list_rect = {};
  if (st.playlist) {
    const PlaylistOverlayDrawn drawn = draw_playlist_overlay(*st.playlist, panels_width(st, ImGui::GetIO().DisplaySize.x));
    if (drawn.clicked) st.playlist_clicked = drawn.clicked;
    inspector_bottom = std::min(inspector_bottom, drawn.caption[1] - kMargin);  // above the caption
    st.caption_rect = drawn.caption;
    st.playlist_list_rect = drawn.list;
  }
  draw_inspector(st, inspector_bottom);
  draw_lab_view_in_free_area(s, st, job.busy && job.elapsed_s >= kIndicatorAfterS);
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
  if (s.stencil().user_kernel()) section("Your kernel", st.user_kernel_open, s, st, panels::draw_user_kernel_section);
  if (s.simulating() && s.simulation().user_step())
    section("Your kernel", st.user_kernel_open, s, st, panels::draw_user_step_section);
  section("Kernel", st.kernel_open, s, st, panels::draw_kernel_section);
  if (s.simulating()) section("Simulation", st.simulation_open, s, st, panels::draw_simulation_section);
  if (s.in_lab()) section("Lab", st.lab_open, s, st, panels::draw_lab_section);
  if (!s.in_lab()) section("Launch", st.launch_open, s, st, panels::draw_launch_section);  // Lab: in its report
  section("Timing", st.timing_open, s, st, panels::draw_timing_section);
  if (s.in_lab()) section("Roofline", st.roofline_open, s, st, panels::draw_roofline_section);
  section("Device", st.device_open, s, st, panels::draw_device_section);
  if (st.view) section("View", st.view_open, s, st, panels::draw_view_section);
  section("Source", st.source_open, s, st, panels::draw_source_section);
  // Last, so that the headers above keep their places (scripts and presenters click them).
  section("Why", st.why_open, s, st, panels::draw_why_section);
  ImGui::PopItemWidth();
  ImGui::End();
  if (st.source_open)  // its own window, left of the sidebar: code needs width (ui/panels/source_section.cpp)
    panels::draw_source_window(s, st, w);
}

}  // namespace ks::ui
