#include "panels/launch/sweep_heatmap.hpp"

#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "report/text_format.hpp"

namespace ks::ui::panels {

namespace {

using app::SweepCell;

ImU32 heat_colour(float t) {
  // From a bright yellow (fast) through orange to a dark purple (slow): readable on ImGui's dark theme.
  const ImVec4 fast(0.99f, 0.91f, 0.15f, 1), mid(0.90f, 0.35f, 0.15f, 1), slow(0.25f, 0.05f, 0.35f, 1);
  const ImVec4 a = t < 0.5f ? fast : mid, b = t < 0.5f ? mid : slow;
  const float u = t < 0.5f ? t * 2 : (t - 0.5f) * 2;
  return ImGui::GetColorU32(ImVec4(a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u, a.z + (b.z - a.z) * u, 1));
}

void cell_tooltip(const SweepCell& c) {
  ImGui::BeginTooltip();
  ImGui::Text("block %s (%d threads)", to_string(c.block).c_str(), c.block.threads());
  switch (c.status) {
    case SweepCell::Status::Ok:
      ImGui::Text("median %s ms, %s GB/s, %s of copy BW", report::format_ms(c.median_ms).c_str(),
                  report::format_gbps(c.gbps).c_str(), report::format_percent(c.percent_of_copy).c_str());
      ImGui::Text("occupancy %.0f%%", 100.0 * c.occupancy);
      ImGui::TextDisabled("click to use this block");
      break;
    case SweepCell::Status::Waiting: ImGui::TextDisabled("not measured yet"); break;
    case SweepCell::Status::Invalid:
    case SweepCell::Status::Failed:
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
      ImGui::TextUnformatted(c.note.c_str());
      ImGui::PopTextWrapPos();
      break;
  }
  ImGui::EndTooltip();
}

}  // namespace

float heat_of(double ms, double fastest_ms, double slowest_ms) {
  if (!(ms > 0) || !(fastest_ms > 0) || slowest_ms <= fastest_ms) return 0.0f;
  const double t = std::log(ms / fastest_ms) / std::log(slowest_ms / fastest_ms);
  return float(std::clamp(t, 0.0, 1.0));
}

std::optional<BlockShape> draw_sweep_heatmap(const app::SweepGrid& grid, BlockShape current) {
  double fastest = 0, slowest = 0;
  for (const auto& c : grid.cells)
    if (c.status == SweepCell::Status::Ok) {
      fastest = fastest > 0 ? std::min(fastest, c.median_ms) : c.median_ms;
      slowest = std::max(slowest, c.median_ms);
    }
  const SweepCell* best = grid.fastest();
  ImGui::Text("%s (%s) on %dx%d: %s", grid.kernel.c_str(), grid.variant.c_str(), grid.shape.width,
              grid.shape.height, grid.complete ? "complete" : "partial");
  if (best)
    ImGui::Text("fastest %s: %s ms (slowest %s ms)", to_string(best->block).c_str(),
                report::format_ms(best->median_ms).c_str(), report::format_ms(slowest).c_str());

  const std::size_t cols = grid.widths.size(), rows = grid.heights.size();
  const float label_w = ImGui::CalcTextSize("1024 ").x, label_h = ImGui::GetTextLineHeight();
  const float avail = ImGui::GetContentRegionAvail().x - label_w;
  const float cell = std::clamp(avail / float(cols), 8.0f, 28.0f);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 grid_min(origin.x + label_w, origin.y + label_h);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), faint = ImGui::GetColorU32(ImGuiCol_TextDisabled);

  // Column labels (width) along the top, row labels (height) down the left, every other one when cramped.
  const int label_step = cell < ImGui::CalcTextSize("1024").x ? 2 : 1;
  for (std::size_t c = 0; c < cols; c += std::size_t(label_step))
    draw->AddText(ImVec2(grid_min.x + float(c) * cell, origin.y), faint, std::to_string(grid.widths[c]).c_str());
  for (std::size_t r = 0; r < rows; ++r)
    draw->AddText(ImVec2(origin.x, grid_min.y + float(r) * cell + (cell - label_h) / 2), faint,
                  std::to_string(grid.heights[r]).c_str());

  std::optional<BlockShape> picked;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) {
      const SweepCell& cellv = grid.at(r, c);
      const ImVec2 a(grid_min.x + float(c) * cell, grid_min.y + float(r) * cell);
      const ImVec2 b(a.x + cell - 1, a.y + cell - 1);
      switch (cellv.status) {
        case SweepCell::Status::Ok:
          draw->AddRectFilled(a, b, heat_colour(heat_of(cellv.median_ms, fastest, slowest)));
          break;
        case SweepCell::Status::Waiting: draw->AddRect(a, b, faint); break;
        case SweepCell::Status::Invalid:
        case SweepCell::Status::Failed:
          draw->AddRectFilled(a, b, IM_COL32(45, 45, 50, 255));
          if (cellv.status == SweepCell::Status::Failed) draw->AddLine(a, b, IM_COL32(220, 80, 70, 255));
          break;
      }
      if (&cellv == best) draw->AddRect(a, b, IM_COL32(80, 220, 120, 255), 0, 0, 2.0f);
      if (cellv.block == current) draw->AddRect(ImVec2(a.x + 3, a.y + 3), ImVec2(b.x - 3, b.y - 3), text);
      const bool hovered = ImGui::IsWindowHovered() && mouse.x >= a.x && mouse.x < b.x + 1 && mouse.y >= a.y &&
                           mouse.y < b.y + 1;
      if (hovered) {
        cell_tooltip(cellv);
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) && cellv.status == SweepCell::Status::Ok)
          picked = cellv.block;
      }
    }
  ImGui::Dummy(ImVec2(label_w + float(cols) * cell, label_h + float(rows) * cell));
  ImGui::TextDisabled("width across, height down; bright = fast");
  return picked;
}

}  // namespace ks::ui::panels
