// The Topology panel's results: a timeline over the timestamps, the heatmap of the best cost, the network
// with its link loads, the histogram of placement costs and the top placements.
#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "report/topo_report.hpp"
#include "core/error.hpp"
#include "panels/topology/cost_heatmap.hpp"
#include "panels/topology/network_drawing.hpp"
#include "panels/topology/topology_sections.hpp"
#include "session/topology/topology_document.hpp"

namespace ks::ui::panels {

namespace {

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

void select(app::TopologyDocument& doc, TopologyPanelState& st, int slice, int config) {
  try {
    doc.select(slice, config);
  } catch (const Error& e) {
    st.error = e.full_message();
  }
}

void summary(const app::TopologyRun& run) {
  const topo::EvalResult& r = run.result;
  const auto& tr = run.inputs->traffic;
  const auto& configs = run.inputs->configs;
  bool any = false;
  for (const auto& s : r.slices) any = any || s.count > 0;
  if (!any) return ImGui::TextDisabled("nothing was evaluated");
  const topo::BestPlacement best = topo::best_overall(r);
  ImGui::TextWrapped("Best: cost %s at %s on %s: %s", report::cost_text(r, best.cost).c_str(),
                     report::slice_label(r, tr, best.slice).c_str(),
                     configs[std::size_t(best.configuration)].name.c_str(),
                     joined(report::placement_names(tr, best.placement)).c_str());
  ImGui::TextDisabled("%s%llu placements x %d slices x %d configurations on %s, %.2f s",
                      r.complete ? "" : "CANCELLED: ", static_cast<unsigned long long>(r.placements),
                      run.problem->slices, run.problem->configs, r.timing.device.c_str(), run.wall_s);
}

void timeline(app::TopologyDocument& doc, TopologyPanelState& st, const app::TopologyRun& run) {
  const app::TopologyDocument::Selection sel = doc.selection();
  int slice = sel.slice;
  const std::string label = report::slice_label(run.result, run.inputs->traffic, slice);
  ImGui::SetNextItemWidth(-ImGui::CalcTextSize("timestamp").x - 12);
  if (ImGui::SliderInt("timestamp", &slice, 0, run.problem->slices - 1, label.c_str()))
    select(doc, st, slice, sel.configuration);
  if (ImGui::IsItemHovered() && run.problem->summed_slice)
    ImGui::SetTooltip("The last position is the traffic summed over every timestamp");
}

void histogram(const app::TopologyRun& run, const topo::SliceResult& s, float width, float height) {
  if (s.count == 0) return ImGui::TextDisabled("no placement evaluated here");
  const topo::EvalResult& r = run.result;
  ImGui::Text("costs of %llu placements: min %s, mean %.6g, max %s", static_cast<unsigned long long>(s.count),
              report::cost_text(r, s.min).c_str(), s.mean, report::cost_text(r, s.max).c_str());
  if (!s.histogram)
    return ImGui::TextDisabled(run.result.complete ? "no histogram"
                                                   : "no histogram: the sweep was cancelled before it");
  std::vector<float> counts(s.histogram->counts.begin(), s.histogram->counts.end());
  const std::string overlay = fmt::format("{} bins from {:.6g}, {:.4g} wide", counts.size(),
                                          s.histogram->lo.value, s.histogram->width.value);
  ImGui::PlotHistogram("##costs", counts.data(), int(counts.size()), 0, overlay.c_str(), 0.0f, FLT_MAX,
                       ImVec2(width, height));
}

void top_table(app::TopologyDocument& doc, TopologyPanelState& st, const app::TopologyRun& run,
               float height) {
  const topo::EvalResult& r = run.result;
  if (r.top.empty())
    return ImGui::TextDisabled(r.complete ? "no top placements (top K = 0)"
                                          : "no top placements: the sweep was cancelled");
  ImGui::Text("Top %zu placements on %s (click to show)", r.top.size(),
              report::slice_label(r, run.inputs->traffic, r.top_slice).c_str());
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable("##top", 4, flags, ImVec2(0, height))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("000").x);
  ImGui::TableSetupColumn("cost", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("0000000000").x);
  ImGui::TableSetupColumn("configuration", ImGuiTableColumnFlags_WidthFixed,
                          ImGui::CalcTextSize("ring+matching10").x);
  ImGui::TableSetupColumn("placement (node at position 1, 2, ...)");
  ImGui::TableHeadersRow();
  for (std::size_t i = 0; i < r.top.size(); ++i) {
    const topo::RankedPlacement& t = r.top[i];
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    const bool selected = doc.selection().top_rank == int(i);
    if (ImGui::Selectable(fmt::format("{}##rank", i + 1).c_str(), selected,
                          ImGuiSelectableFlags_SpanAllColumns)) {
      try {
        doc.select_top(selected ? -1 : int(i));
      } catch (const Error& e) {
        st.error = e.full_message();
      }
    }
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(report::cost_text(r, t.cost).c_str());
    ImGui::TableSetColumnIndex(2);
    ImGui::TextUnformatted(run.inputs->configs[std::size_t(t.configuration)].name.c_str());
    ImGui::TableSetColumnIndex(3);
    ImGui::TextUnformatted(joined(report::placement_names(run.inputs->traffic, t.placement)).c_str());
  }
  ImGui::EndTable();
}

void network(const app::TopologyDocument& doc, const app::TopologyRun& run, float width, float height) {
  const auto sel = doc.selection();
  const std::string& config = run.inputs->configs[std::size_t(sel.configuration)].name;
  const std::optional<topo::Cost> cost = doc.selected_cost();
  ImGui::Text("%s, %s%s: cost %s", config.c_str(),
              report::slice_label(run.result, run.inputs->traffic, sel.slice).c_str(),
              sel.top_rank >= 0 ? fmt::format(", top {}", sel.top_rank + 1).c_str() : "",
              cost ? report::cost_text(run.result, *cost).c_str() : "-");
  std::optional<app::LoadedNetwork> net;
  try {
    net = doc.selected_network();
  } catch (const Error& e) {
    return ImGui::TextWrapped("cannot draw the network: %s", e.full_message().c_str());
  }
  if (!net)
    return ImGui::TextDisabled("%s", cost ? "path costs only: no links to draw" : "nothing evaluated here");
  draw_network(*net, width, height);
  ImGui::TextDisabled("busiest link %.6g; width and colour: load%s%s", net->max_load,
                      net->from_coordinates ? "; SNDlib coordinates" : "",
                      net->note.empty() ? "" : ("; " + net->note).c_str());
}

}  // namespace

void draw_topology_results(app::TopologyDocument& doc, TopologyPanelState& st) {
  if (draw_proof_results(doc, st)) return;
  if (draw_search_results(doc, st)) return;
  const app::TopologyRun* run = doc.run_result();
  if (!run) {
    ImGui::TextDisabled(doc.busy() ? "sweeping..." : "no result yet: press Run");
    return;
  }
  summary(*run);
  timeline(doc, st, *run);

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float top_h = std::max(160.0f, avail.y * 0.58f);
  const float left_w = std::max(200.0f, avail.x * 0.42f);

  ImGui::BeginChild("##heat", ImVec2(left_w, top_h), false);
  ImGui::TextUnformatted("Best cost");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Timestamps down, configurations across; click a cell to select it");
  ImGui::SameLine();
  ImGui::Checkbox("per timestamp", &st.heat_per_row);
  HeatmapLabels labels;
  for (int t = 0; t < run->problem->timestamps; ++t)
    labels.rows.push_back(run->inputs->traffic.timestamps[std::size_t(t)]);
  for (const auto& c : run->inputs->configs) labels.cols.push_back(c.name);
  const auto sel = doc.selection();
  const auto picked = draw_cost_heatmap(doc.cost_grid(), labels, sel.slice, sel.configuration, left_w - 8,
                                        top_h - line * 1.5f, st.heat_per_row);
  if (picked) select(doc, st, picked->first, picked->second);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("##net", ImVec2(0, top_h), false);
  network(doc, *run, ImGui::GetContentRegionAvail().x, top_h - line * 2.5f);
  ImGui::EndChild();

  const float bottom_h = ImGui::GetContentRegionAvail().y;
  ImGui::BeginChild("##hist", ImVec2(left_w, bottom_h), false);
  if (const topo::SliceResult* s = doc.selected_slice())
    histogram(*run, *s, left_w - 8, bottom_h - line * 1.5f);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("##top", ImVec2(0, bottom_h), false);
  top_table(doc, st, *run, bottom_h - line * 1.5f);
  ImGui::EndChild();
}

}  // namespace ks::ui::panels
