// The copy/kernel timeline of a lab run, the shape Nsight Systems shows: lanes upload / kernel / download,
// one bar per chunk from CUDA events, coloured by stream; the serial run above the streamed one on one time
// axis, so the overlap of the streams is what the eye compares. Hover a bar for its stream, chunk, times and
// bytes.
#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "report/text_format.hpp"
#include "panels/lab/lab_sections.hpp"
#include "panels/log_log_plot.hpp"
#include "panels/panel_sections.hpp"

namespace ks::ui::panels {

namespace {

constexpr const char* kLanes[] = {"upload", "kernel", "download"};
constexpr float kLabelWidth = 64;

double end_of(const std::vector<lab::TimelineBar>& bars) {
  double end = 0;
  for (const auto& b : bars) end = std::max(end, b.end_ms);
  return end;
}

// 1, 2 or 5 times a power of ten: about `target` steps over `span`.
double tick_step(double span, int target) {
  const double raw = span / std::max(1, target);
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}

// Three lanes of `bars` on [0, end] ms across [x0, x1]; returns the bar under the mouse, if any.
const lab::TimelineBar* draw_lanes(const std::vector<lab::TimelineBar>& bars, double end, float x0,
                                   float x1) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float lane_h = ImGui::GetTextLineHeight() + 2;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImU32 faint = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const lab::TimelineBar* hovered = nullptr;
  ImGui::Dummy(ImVec2(x1 - origin.x, lane_h * 3 + 2));
  const bool window_hovered = ImGui::IsWindowHovered();
  for (int l = 0; l < 3; ++l) {
    const float y = origin.y + float(l) * lane_h;
    draw->AddText(ImVec2(origin.x, y), faint, kLanes[l]);
    draw->AddRectFilled(ImVec2(x0, y), ImVec2(x1, y + lane_h - 2), IM_COL32(0, 0, 0, 50));
    for (const auto& b : bars) {
      if (b.lane != kLanes[l]) continue;
      const float a = x0 + float(b.start_ms / end) * (x1 - x0);
      const float z = std::max(a + 1.0f, x0 + float(b.end_ms / end) * (x1 - x0));
      const ImVec2 p0(a, y + 1), p1(z, y + lane_h - 3);
      draw->AddRectFilled(p0, p1, series_colour(b.stream));
      draw->AddRect(p0, p1, IM_COL32(0, 0, 0, 140));
      const std::string chunk = std::to_string(b.chunk);
      if (z - a > ImGui::CalcTextSize(chunk.c_str()).x + 4)
        draw->AddText(ImVec2(a + 2, y), IM_COL32(0, 0, 0, 220), chunk.c_str());
      if (window_hovered && mouse.x >= a && mouse.x <= z && mouse.y >= p0.y && mouse.y <= p1.y) hovered = &b;
    }
  }
  return hovered;
}

void time_axis(double end, float x0, float x1) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImU32 faint = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const double step = tick_step(end, std::max(2, int((x1 - x0) / 60)));
  draw->AddLine(ImVec2(x0, origin.y), ImVec2(x1, origin.y), faint);
  for (double t = 0; t <= end * 1.0001; t += step) {
    const float x = x0 + float(t / end) * (x1 - x0);
    draw->AddLine(ImVec2(x, origin.y), ImVec2(x, origin.y + 3), faint);
    const std::string label = report::format_ms(t);
    draw->AddText(ImVec2(std::min(x - ImGui::CalcTextSize(label.c_str()).x / 2,
                                  x1 - ImGui::CalcTextSize(label.c_str()).x),
                         origin.y + 3),
                  faint, label.c_str());
  }
  draw->AddText(ImVec2(origin.x, origin.y + 3), faint, "ms");
  ImGui::Dummy(ImVec2(x1 - origin.x, ImGui::GetTextLineHeight() + 5));
}

void bar_tooltip(const lab::TimelineBar& b, const char* run) {
  std::string text = fmt::format("{} run, {}\nstream {}, chunk {}\n{} .. {} ms ({} ms)", run, b.lane,
                                 b.stream, b.chunk, report::format_ms(b.start_ms), report::format_ms(b.end_ms),
                                 report::format_ms(b.end_ms - b.start_ms));
  if (b.bytes > 0) {
    text += fmt::format("\n{}", report::format_bytes(b.bytes));
    if (b.end_ms > b.start_ms)
      text += fmt::format(", {} GB/s", report::format_gbps(double(b.bytes) / ((b.end_ms - b.start_ms) * 1e6)));
  }
  ImGui::SetTooltip("%s", text.c_str());
}

}  // namespace

void draw_lab_timeline(const lab::LabReport& r) {
  if (r.timeline.empty()) {
    note_text(
        r.backend == Backend::Cuda
            ? "This run had no copies to draw (" + std::string(lab::to_string(r.host)) + " memory)."
            : "Timeline: the CPU backend copies nothing. CUDA runs draw their upload, kernel and download "
              "here, one bar per chunk and stream.");
    return;
  }
  const bool both = !r.serial_timeline.empty();
  const double end = std::max(end_of(r.timeline), end_of(r.serial_timeline));
  if (end <= 0) return;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float x0 = origin.x + kLabelWidth;
  const float x1 = origin.x + std::max(kLabelWidth + 40, ImGui::GetContentRegionAvail().x - 4);
  const lab::TimelineBar* hovered = nullptr;
  const char* hovered_run = "";
  if (both) {
    ImGui::Text("serial (1 stream): %s ms", report::format_ms(end_of(r.serial_timeline)).c_str());
    if (auto* h = draw_lanes(r.serial_timeline, end, x0, x1)) hovered = h, hovered_run = "serial";
    ImGui::Text("%d streams x %d chunks: %s ms", r.streams, r.chunks,
                report::format_ms(end_of(r.timeline)).c_str());
  } else {
    ImGui::Text("one repeat: %s ms end to end", report::format_ms(end_of(r.timeline)).c_str());
  }
  if (auto* h = draw_lanes(r.timeline, end, x0, x1)) hovered = h, hovered_run = both ? "streamed" : "the";
  time_axis(end, x0, x1);
  if (hovered) bar_tooltip(*hovered, hovered_run);
  ImGui::TextDisabled("bars coloured by stream, numbered by chunk; the median repeat");
}

}  // namespace ks::ui::panels
