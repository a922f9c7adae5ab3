#include "panels/topology/network_drawing.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace ks::ui::panels {

namespace {

// Unloaded links a dim blue, the busiest red, through yellow: readable on ImGui's dark theme.
ImU32 load_colour(double t) {
  t = std::clamp(t, 0.0, 1.0);
  const ImVec4 cold(0.25f, 0.45f, 0.85f, 1), warm(0.98f, 0.85f, 0.2f, 1), hot(0.95f, 0.2f, 0.15f, 1);
  const ImVec4 a = t < 0.5 ? cold : warm, b = t < 0.5 ? warm : hot;
  const float u = float(t < 0.5 ? t * 2 : (t - 0.5) * 2);
  return ImGui::GetColorU32(ImVec4(a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u, a.z + (b.z - a.z) * u, 1));
}

float distance_to_segment(ImVec2 p, ImVec2 a, ImVec2 b) {
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float len2 = dx * dx + dy * dy;
  float t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0;
  t = std::clamp(t, 0.0f, 1.0f);
  const float ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y;
  return std::sqrt(ex * ex + ey * ey);
}

}  // namespace

void draw_network(const app::LoadedNetwork& net, float width, float height) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##network", ImVec2(std::max(width, 40.0f), std::max(height, 40.0f)));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height), IM_COL32(20, 22, 28, 255));

  // Room for the labels around the drawing; a square drawing area for circles and maps alike.
  const float margin = ImGui::GetFontSize() * 2.5f;
  const float side = std::max(10.0f, std::min(width, height) - 2 * margin);
  const ImVec2 area(origin.x + (width - side) / 2, origin.y + (height - side) / 2);
  auto at = [&](int v) {
    return ImVec2(area.x + float(net.x[std::size_t(v)]) * side, area.y + float(net.y[std::size_t(v)]) * side);
  };

  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const app::LoadedNetwork::Edge* hovered_edge = nullptr;
  float nearest = 6.0f;
  // Unloaded links first, the busiest last: heavy lines stay on top.
  std::vector<const app::LoadedNetwork::Edge*> order;
  for (const auto& e : net.edges) order.push_back(&e);
  std::sort(order.begin(), order.end(), [](const auto* a, const auto* b) { return a->load < b->load; });
  for (const auto* e : order) {
    const double t = net.max_load > 0 ? e->load / net.max_load : 0;
    const ImVec2 a = at(e->a), b = at(e->b);
    draw->AddLine(a, b, load_colour(t), 1.0f + 7.0f * float(t));
    if (hovered) {
      const float d = distance_to_segment(mouse, a, b);
      if (d < nearest) nearest = d, hovered_edge = e;
    }
  }
  const float radius =
      std::clamp(side / float(std::max<std::size_t>(net.labels.size(), 1)) * 0.6f, 3.0f, 7.0f);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  for (std::size_t v = 0; v < net.labels.size(); ++v) {
    const ImVec2 p = at(int(v));
    const bool position = int(v) < net.positions;
    draw->AddCircleFilled(p, position ? radius : radius * 0.7f,
                          position ? IM_COL32(235, 235, 240, 255) : IM_COL32(150, 150, 160, 255));
    // Labels outward from the centre, so they do not sit on the links.
    const ImVec2 size = ImGui::CalcTextSize(net.labels[v].c_str());
    const float dx = p.x - (area.x + side / 2), dy = p.y - (area.y + side / 2);
    const float len = std::max(1.0f, std::sqrt(dx * dx + dy * dy));
    const ImVec2 lp(p.x + dx / len * (radius + 4) - size.x * (dx < 0 ? 1.0f : 0.0f),
                    p.y + dy / len * (radius + 4) - size.y / 2);
    draw->AddText(lp, text, net.labels[v].c_str());
  }
  if (hovered_edge) {
    ImGui::BeginTooltip();
    ImGui::Text("%s - %s (link %s)", net.labels[std::size_t(hovered_edge->a)].c_str(),
                net.labels[std::size_t(hovered_edge->b)].c_str(), hovered_edge->name.c_str());
    ImGui::Text("load %.6g (%.0f%% of the busiest)", hovered_edge->load,
                net.max_load > 0 ? 100.0 * hovered_edge->load / net.max_load : 0.0);
    if (hovered_edge->weight != 1) ImGui::Text("length %.6g", hovered_edge->weight);
    ImGui::EndTooltip();
  }
}

}  // namespace ks::ui::panels
