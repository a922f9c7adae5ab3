// The top row of the search's and the proof's views: a plot of cost over time and, beside it, the network with
// the best placement (networks with routes; path costs alone have none, and the plot takes the width).
#include <imgui.h>

#include <algorithm>

#include "core/error.hpp"
#include "panels/topology/network_drawing.hpp"
#include "panels/topology/topology_sections.hpp"

namespace ks::ui::panels {

void draw_plot_beside_network(const std::function<std::optional<app::LoadedNetwork>()>& network,
                              const std::function<void(bool drawable)>& header,
                              const std::function<void(float width, float height)>& plot, const std::string& config) {
  std::optional<app::LoadedNetwork> net;
  std::string net_error;
  try {
    net = network();
  } catch (const Error& e) {
    net_error = e.full_message();
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float top_h = std::max(160.0f, avail.y * 0.62f);
  const bool drawable = net || !net_error.empty();
  const float left_w = drawable ? std::max(200.0f, avail.x * 0.48f) : avail.x;
  ImGui::BeginChild("##plot", ImVec2(left_w, top_h), false);
  header(drawable);
  plot(left_w - 8, top_h - line * 1.6f);
  ImGui::EndChild();
  if (!drawable) return;
  ImGui::SameLine();
  ImGui::BeginChild("##bestnet", ImVec2(0, top_h), false);
  ImGui::Text("Best placement on %s", config.c_str());
  if (net)
    draw_network(*net, ImGui::GetContentRegionAvail().x, top_h - line * 1.6f);
  else
    ImGui::TextWrapped("cannot draw the network: %s", net_error.c_str());
  ImGui::EndChild();
}

}  // namespace ks::ui::panels
