#include "panels/topology/cost_heatmap.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "session/display_frame.hpp"

namespace ks::ui::panels {

namespace {

ImU32 viridis(double t) {
  const ColormapTable& table = colormap_table(Colormap::Viridis);
  const Rgba8 c = table[std::size_t(std::clamp(t, 0.0, 1.0) * 255.0 + 0.5)];
  return IM_COL32(c[0], c[1], c[2], 255);
}

}  // namespace

std::optional<std::pair<int, int>> draw_cost_heatmap(const app::CostGrid& grid, const HeatmapLabels& labels,
                                                     int selected_row, int selected_col, float width,
                                                     float height, bool per_row) {
  if (grid.rows == 0 || grid.cols == 0) {
    ImGui::TextDisabled("no result yet");
    return std::nullopt;
  }
  const float label_w = ImGui::CalcTextSize("00:00 ").x;
  const float legend_h = ImGui::GetTextLineHeightWithSpacing() * 2;
  const float cell_w = std::clamp((width - label_w) / float(grid.cols), 3.0f, 64.0f);
  const float line = ImGui::GetTextLineHeight();
  const float cell_h = std::clamp((height - legend_h - line) / float(grid.rows), 3.0f, 40.0f);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 grid_min(origin.x + label_w, origin.y + line);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 faint = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  // The range each row's colours span.
  std::vector<double> row_lo(std::size_t(grid.rows), grid.lo), row_hi(std::size_t(grid.rows), grid.hi);
  if (per_row)
    for (int r = 0; r < grid.rows; ++r) {
      double lo = INFINITY, hi = -INFINITY;
      for (int c = 0; c < grid.cols; ++c)
        if (std::isfinite(grid.at(r, c))) lo = std::min(lo, grid.at(r, c)), hi = std::max(hi, grid.at(r, c));
      if (lo <= hi) row_lo[std::size_t(r)] = lo, row_hi[std::size_t(r)] = hi;
    }

  // Column numbers along the top (names in the tooltips), row labels down the left, as many as fit.
  const int col_step = std::max(1, int(std::ceil(ImGui::CalcTextSize("00").x / cell_w)));
  for (int c = 0; c < grid.cols; c += col_step)
    draw->AddText(ImVec2(grid_min.x + float(c) * cell_w + 1, origin.y), faint, std::to_string(c + 1).c_str());
  const int step = std::max(1, int(std::ceil(line / cell_h)));
  for (int r = 0; r < grid.rows; r += step)
    if (std::size_t(r) < labels.rows.size())
      draw->AddText(ImVec2(origin.x, grid_min.y + float(r) * cell_h + (cell_h - line) / 2), faint,
                    labels.rows[std::size_t(r)].c_str());

  std::optional<std::pair<int, int>> picked;
  ImGui::InvisibleButton("##heatmap",
                         ImVec2(label_w + cell_w * float(grid.cols), line + cell_h * float(grid.rows)));
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (int r = 0; r < grid.rows; ++r)
    for (int c = 0; c < grid.cols; ++c) {
      const ImVec2 a(grid_min.x + float(c) * cell_w, grid_min.y + float(r) * cell_h);
      const ImVec2 b(a.x + cell_w - (cell_w > 6 ? 1 : 0), a.y + cell_h - (cell_h > 6 ? 1 : 0));
      const double v = grid.at(r, c);
      const double lo = row_lo[std::size_t(r)], span = row_hi[std::size_t(r)] - lo;
      if (std::isfinite(v))
        draw->AddRectFilled(a, b, viridis(span > 0 ? (v - lo) / span : 0.0));
      else
        draw->AddRect(a, b, faint);
      if (grid.best_col[std::size_t(r)] == c)
        draw->AddCircleFilled(ImVec2((a.x + b.x) / 2, (a.y + b.y) / 2),
                              std::min({cell_w, cell_h, 8.0f}) * 0.25f, IM_COL32(255, 255, 255, 230));
      if (hovered && mouse.x >= a.x && mouse.x < a.x + cell_w && mouse.y >= a.y && mouse.y < a.y + cell_h) {
        ImGui::BeginTooltip();
        ImGui::Text("%s, configuration %d: %s",
                    std::size_t(r) < labels.rows.size() ? labels.rows[std::size_t(r)].c_str() : "?", c + 1,
                    std::size_t(c) < labels.cols.size() ? labels.cols[std::size_t(c)].c_str() : "?");
        if (std::isfinite(v))
          ImGui::Text("best cost %.6g%s", v, grid.best_col[std::size_t(r)] == c ? " (best here)" : "");
        else
          ImGui::TextDisabled("not evaluated");
        ImGui::TextDisabled("click to select");
        ImGui::EndTooltip();
        if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) picked = std::pair{r, c};
      }
    }
  if (selected_row >= 0 && selected_row < grid.rows && selected_col >= 0 && selected_col < grid.cols) {
    const ImVec2 a(grid_min.x + float(selected_col) * cell_w, grid_min.y + float(selected_row) * cell_h);
    draw->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(a.x + cell_w + 1, a.y + cell_h + 1),
                  IM_COL32(255, 80, 80, 255), 0, 0, 2.0f);
  }

  // The legend: the colour ramp from the lowest to the highest best cost.
  const ImVec2 ramp(grid_min.x, ImGui::GetCursorScreenPos().y + 2);
  const float ramp_w = std::max(40.0f, cell_w * float(grid.cols) - 4);
  for (int i = 0; i < 64; ++i)
    draw->AddRectFilled(ImVec2(ramp.x + ramp_w * float(i) / 64, ramp.y),
                        ImVec2(ramp.x + ramp_w * float(i + 1) / 64 + 1, ramp.y + 6), viridis(i / 63.0));
  ImGui::Dummy(ImVec2(ramp_w, 8));
  if (per_row)
    ImGui::TextDisabled("each row from its best (dark) to its worst; dot: best configuration");
  else
    ImGui::TextDisabled("dark %.6g .. bright %.6g; dot: best configuration", grid.lo, grid.hi);
  return picked;
}

}  // namespace ks::ui::panels
