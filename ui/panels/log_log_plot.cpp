#include "panels/log_log_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace ks::ui::panels {

namespace {

constexpr float kLeft = 42, kBottom = 30, kTop = 6, kRight = 8;  // room for labels, logical pixels

using Box = std::array<float, 4>;  // min x, min y, max x, max y

bool overlap(const Box& a, const Box& b) { return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]; }

// Where a point's label goes: right of it or left, above or below, then a line further up or down; the first
// place inside the frame that covers no label drawn before and not the legend. None: the label is left out
// (the legend and the point's tooltip still say whose it is), rather than printed over another.
std::optional<Box> free_label_place(ImVec2 point, ImVec2 size, const LogLogFrame& frame,
                                    const std::vector<Box>& taken) {
  const float right = point.x + 4, left = point.x - 4 - size.x;
  const float above = point.y - size.y, below = point.y + 1;
  const ImVec2 candidates[] = {{right, above}, {right, below}, {left, above}, {left, below},
                               {right, above - size.y}, {right, below + size.y}, {left, above - size.y},
                               {left, below + size.y}};
  for (const ImVec2& c : candidates) {
    const Box box{c.x, c.y, c.x + size.x, c.y + size.y};
    if (box[0] < frame.min.x || box[2] > frame.max.x || box[1] < frame.min.y || box[3] > frame.max.y) continue;
    if (std::none_of(taken.begin(), taken.end(), [&](const Box& t) { return overlap(box, t); })) return box;
  }
  return std::nullopt;
}

// The decades that hold [lo, hi], at least one wide.
void widen_to_decades(double& lo, double& hi) {
  lo = std::pow(10.0, std::floor(std::log10(lo)));
  hi = std::pow(10.0, std::ceil(std::log10(hi)));
  if (hi <= lo) hi = lo * 10;
}

}  // namespace

ImVec2 LogLogFrame::to_screen(double x, double y) const {
  const double fx = (std::log10(x) - std::log10(x0)) / (std::log10(x1) - std::log10(x0));
  const double fy = (std::log10(y) - std::log10(y0)) / (std::log10(y1) - std::log10(y0));
  return ImVec2(min.x + float(fx) * (max.x - min.x), max.y - float(fy) * (max.y - min.y));
}

std::string decade_label(int e) {
  static const char* kSuffix[] = {"", "k", "M", "G", "T", "P"};
  if (e >= 0 && e % 3 == 0 && e / 3 < 6) return fmt::format("1{}", kSuffix[e / 3]);
  if (e >= 0 && e < 18) return fmt::format("{}{}", int(std::pow(10, e % 3)), kSuffix[e / 3]);
  if (e < 0 && e >= -4) return fmt::format("{:.{}f}", std::pow(10.0, e), -e);
  return fmt::format("1e{}", e);
}

ImU32 series_colour(int index) {
  static const ImU32 kColours[] = {IM_COL32(90, 170, 255, 255),  IM_COL32(255, 160, 60, 255),
                                   IM_COL32(110, 210, 110, 255), IM_COL32(235, 90, 90, 255),
                                   IM_COL32(190, 130, 255, 255), IM_COL32(240, 220, 90, 255),
                                   IM_COL32(80, 210, 200, 255),  IM_COL32(250, 130, 200, 255)};
  return kColours[std::size_t(index) % (sizeof kColours / sizeof kColours[0])];
}

LogLogFrame draw_log_log_plot(const LogLogPlot& plot, const char* id) {
  LogLogFrame frame;
  const float width = ImGui::GetContentRegionAvail().x;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, ImVec2(std::max(width, 60.0f), plot.height));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  frame.min = ImVec2(origin.x + kLeft, origin.y + kTop);
  frame.max = ImVec2(origin.x + width - kRight, origin.y + plot.height - kBottom);
  const ImU32 axis = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border);
  draw->AddRectFilled(frame.min, frame.max, IM_COL32(0, 0, 0, 60));
  draw->AddRect(frame.min, frame.max, axis);

  // The data's range.
  double x0 = std::numeric_limits<double>::max(), x1 = 0, y0 = x0, y1 = 0;
  for (const auto& s : plot.series)
    for (const ImVec2& p : s.points)
      if (p.x > 0 && p.y > 0 && std::isfinite(p.x) && std::isfinite(p.y)) {
        x0 = std::min(x0, double(p.x)), x1 = std::max(x1, double(p.x));
        y0 = std::min(y0, double(p.y)), y1 = std::max(y1, double(p.y));
      }
  if (plot.x_range) x0 = plot.x_range->x, x1 = plot.x_range->y;
  if (plot.y_range) y0 = plot.y_range->x, y1 = plot.y_range->y;
  const float line_h = ImGui::GetTextLineHeight();
  const ImVec2 title_pos(frame.min.x, frame.max.y + line_h + 2);
  draw->AddText(ImVec2(frame.max.x - ImGui::CalcTextSize(plot.x_title.c_str()).x, title_pos.y), axis,
                plot.x_title.c_str());
  draw->AddText(ImVec2(origin.x, origin.y + plot.height - line_h), axis, plot.y_title.c_str());
  if (!(x1 > 0) || !(y1 > 0) || x0 > x1 || y0 > y1) {
    draw->AddText(ImVec2(frame.min.x + 8, frame.min.y + 8), axis, "no data yet");
    return frame;
  }
  if (!plot.x_range) widen_to_decades(x0, x1);
  if (!plot.y_range) widen_to_decades(y0, y1);
  frame.x0 = x0, frame.x1 = x1, frame.y0 = y0, frame.y1 = y1;
  frame.valid = true;

  // Decade ticks: every decade when they fit, else every second or third.
  const int ex0 = int(std::ceil(std::log10(x0) - 1e-9)), ex1 = int(std::floor(std::log10(x1) + 1e-9));
  const int ey0 = int(std::ceil(std::log10(y0) - 1e-9)), ey1 = int(std::floor(std::log10(y1) + 1e-9));
  const int x_step =
      std::max(1, int(std::ceil((ex1 - ex0 + 1) * 34.0f / std::max(1.0f, frame.max.x - frame.min.x))));
  const int y_step =
      std::max(1, int(std::ceil((ey1 - ey0 + 1) * (line_h + 4) / std::max(1.0f, frame.max.y - frame.min.y))));
  for (int e = ex0; e <= ex1; e += x_step) {
    const ImVec2 p = frame.to_screen(std::pow(10.0, e), y0);
    draw->AddLine(ImVec2(p.x, frame.min.y), ImVec2(p.x, frame.max.y), grid);
    const std::string label = decade_label(e);
    draw->AddText(ImVec2(p.x - ImGui::CalcTextSize(label.c_str()).x / 2, frame.max.y + 2), axis,
                  label.c_str());
  }
  for (int e = ey0; e <= ey1; e += y_step) {
    const ImVec2 p = frame.to_screen(x0, std::pow(10.0, e));
    draw->AddLine(ImVec2(frame.min.x, p.y), ImVec2(frame.max.x, p.y), grid);
    const std::string label = decade_label(e);
    draw->AddText(ImVec2(frame.min.x - 3 - ImGui::CalcTextSize(label.c_str()).x, p.y - line_h / 2), axis,
                  label.c_str());
  }

  // The legend's place first: the points' labels keep clear of it (it is drawn last, over the points).
  float legend_bottom = frame.min.y + 3, legend_right = frame.min.x;
  for (const auto& s : plot.series) {
    if (s.name.empty()) continue;
    legend_right = std::max(legend_right, frame.min.x + 19 + ImGui::CalcTextSize(s.name.c_str()).x);
    legend_bottom += line_h;
  }
  if (legend_bottom > frame.min.y + 3)
    frame.legend_box = {frame.min.x + 5, frame.min.y + 3, legend_right, legend_bottom};
  std::vector<std::array<float, 4>> taken = {frame.legend_box};

  // The series, clipped to the frame; the point nearest the mouse for the tooltip.
  draw->PushClipRect(frame.min, frame.max, true);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  float best = 36;  // squared pixels
  const LogLogSeries* best_series = nullptr;
  ImVec2 best_point;
  std::size_t best_index = 0;
  for (const auto& s : plot.series) {
    std::vector<ImVec2> screen;
    for (std::size_t i = 0; i < s.points.size(); ++i) {
      const ImVec2 p = s.points[i];
      if (!(p.x > 0 && p.y > 0)) continue;
      const ImVec2 q = frame.to_screen(p.x, p.y);
      screen.push_back(q);
      draw->AddCircleFilled(q, 2.5f, s.colour);
      if (i < s.labels.size() && !s.labels[i].empty()) {
        const ImVec2 size(ImGui::CalcTextSize(s.labels[i].c_str()).x, line_h);
        if (const auto box = free_label_place(q, size, frame, taken)) {
          draw->AddText(ImVec2((*box)[0], (*box)[1]), s.colour, s.labels[i].c_str());
          frame.label_boxes.push_back(*box);
          taken.push_back(*box);
        }
      }
      const float dx = q.x - mouse.x, dy = q.y - mouse.y;
      if (hovered && dx * dx + dy * dy < best) {
        best = dx * dx + dy * dy;
        best_series = &s;
        best_point = p;
        best_index = i;
      }
    }
    if (s.line && screen.size() > 1)
      draw->AddPolyline(screen.data(), int(screen.size()), s.colour, 0, s.thickness);
  }
  draw->PopClipRect();

  // The legend, top left inside the frame.
  float ly = frame.min.y + 3;
  for (const auto& s : plot.series) {
    if (s.name.empty()) continue;
    draw->AddRectFilled(ImVec2(frame.min.x + 5, ly + line_h / 2 - 1),
                        ImVec2(frame.min.x + 15, ly + line_h / 2 + 1), s.colour);
    draw->AddText(ImVec2(frame.min.x + 19, ly), s.colour, s.name.c_str());
    ly += line_h;
  }
  if (best_series) {
    const std::string label =
        best_index < best_series->labels.size() ? best_series->labels[best_index] : std::string();
    ImGui::SetTooltip("%s%s%s\n%s %.4g\n%s %.4g", best_series->name.c_str(), label.empty() ? "" : ": ",
                      label.c_str(), plot.x_title.c_str(), double(best_point.x), plot.y_title.c_str(),
                      double(best_point.y));
  }
  return frame;
}

}  // namespace ks::ui::panels
