// The Topology panel's proof by branch and bound: its time limit beside the other placement choices, and, while
// it runs and after it, its view in the results half: the bound and the best found with the gap, nodes and open
// subtrees, the gap over time as a plot (the best found and the bound as two step lines, where the search shows
// its convergence curve), the network of the best placement and one row per configuration.
#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "panels/topology/topology_sections.hpp"
#include "report/topo_bnb_report.hpp"
#include "report/topo_report.hpp"
#include "session/topology/topology_document.hpp"

namespace ks::ui::panels {

namespace {

// The best found (blue) and the bound (orange) over time, as step lines on a linear time axis.
void gap_plot(const std::vector<topo::GapPoint>& curve, float width, float height) {
  if (curve.empty()) return ImGui::TextDisabled("no bound yet");
  ImGui::InvisibleButton("##gap", ImVec2(std::max(width, 40.0f), std::max(height, 40.0f)));
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  double lo = curve.front().bound.value, hi = curve.front().incumbent.value, t_max = 1e-3;
  for (const auto& g : curve) {
    lo = std::min(lo, g.bound.value);
    hi = std::max(hi, g.incumbent.value);
    t_max = std::max(t_max, g.time_s);
  }
  if (hi <= lo) hi = lo + std::max(1.0, std::fabs(lo) * 0.01);
  const double pad = (hi - lo) * 0.05;
  lo -= pad;
  hi += pad;
  const auto x = [&](double t) { return a.x + float((b.x - a.x) * std::clamp(t / t_max, 0.0, 1.0)); };
  const auto y = [&](double v) { return b.y - float((b.y - a.y) * (v - lo) / (hi - lo)); };
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg));
  const auto steps = [&](auto value, ImU32 colour) {
    for (std::size_t k = 1; k < curve.size(); ++k) {
      const float x0 = x(curve[k - 1].time_s), x1 = x(curve[k].time_s);
      const float y0 = y(value(curve[k - 1])), y1 = y(value(curve[k]));
      draw->AddLine(ImVec2(x0, y0), ImVec2(x1, y0), colour, 2);
      draw->AddLine(ImVec2(x1, y0), ImVec2(x1, y1), colour, 2);
    }
    const float yl = y(value(curve.back()));
    draw->AddLine(ImVec2(x(curve.back().time_s), yl), ImVec2(b.x, yl), colour, 2);
  };
  steps([](const topo::GapPoint& g) { return g.incumbent.value; }, IM_COL32(70, 130, 230, 255));
  steps([](const topo::GapPoint& g) { return g.bound.value; }, IM_COL32(230, 120, 40, 255));
  const std::string overlay = fmt::format("0 .. {:.3g} s; best found (blue), bound (orange)", t_max);
  draw->AddText(ImVec2(a.x + 4, a.y + 2), ImGui::GetColorU32(ImGuiCol_Text), overlay.c_str());
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("bound %s -> %s, best found %s -> %s",
                      fmt::format("{:.10g}", curve.front().bound.value).c_str(),
                      fmt::format("{:.10g}", curve.back().bound.value).c_str(),
                      fmt::format("{:.10g}", curve.front().incumbent.value).c_str(),
                      fmt::format("{:.10g}", curve.back().incumbent.value).c_str());
}

void configurations_table(const app::TopologyRun& run) {
  const topo::BnbResult& r = *run.proof;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY;
  if (!ImGui::BeginTable("##proved", 6, flags, ImVec2(0, ImGui::GetContentRegionAvail().y))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* h : {"configuration", "best cost", "proof", "best bound", "nodes", "placement"})
    ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (const topo::ConfigurationProof& c : r.configurations) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(run.inputs->configs[std::size_t(c.configuration)].name.c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(report::cost_text(run.result, c.best).c_str());
    ImGui::TableSetColumnIndex(2);
    ImGui::TextUnformatted(c.proof.optimal ? "optimal"
                                           : fmt::format("gap {:.2f}%", report::proof_gap_percent(
                                                                            c.best, c.proof.best_bound))
                                                 .c_str());
    ImGui::TableSetColumnIndex(3);
    ImGui::TextUnformatted(report::cost_text(run.result, c.proof.best_bound).c_str());
    ImGui::TableSetColumnIndex(4);
    ImGui::Text("%llu", static_cast<unsigned long long>(c.proof.nodes));
    ImGui::TableSetColumnIndex(5);
    ImGui::TextUnformatted(report::joined(report::placement_names(run.inputs->traffic, c.placement)).c_str());
  }
  ImGui::EndTable();
}

}  // namespace

void draw_proof_settings(app::TopologyDocument& doc, TopologyPanelState& /*state*/) {
  app::TopologyProofSettings& s = doc.settings().proof;
  ImGui::InputDouble("time limit (s)", &s.time_s, 0, 0, "%.3g");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Stop after this many seconds with the best found and the gap proved so far; 0: until "
                      "proved. The proof runs on the CPU threads; with the CUDA backend one of them feeds "
                      "the GPU batches of nodes.");
}

bool draw_proof_results(app::TopologyDocument& doc, TopologyPanelState& /*state*/) {
  const app::ProofLive& live = doc.proof_live();
  const app::TopologyRun* run = doc.run_result();
  const bool proved = run && run->proof;
  if (!live.running && !proved) return false;
  const auto& inputs = live.running || !proved ? doc.inputs() : run->inputs;
  if (!inputs) return false;
  const std::string config = inputs->configs.size() > std::size_t(live.configuration)
                                 ? inputs->configs[std::size_t(live.configuration)].name
                                 : std::string("-");
  const double gap = report::proof_gap_percent(live.incumbent, live.bound);
  if (live.running) {
    ImGui::Text("Proving %s (configuration %d of %d): best found %.10g, bound %.10g, gap %.2f%%", config.c_str(),
                live.configuration + 1, std::max(1, live.configurations), live.incumbent.value, live.bound.value,
                gap);
    ImGui::TextDisabled("%.1f s, %llu nodes, %llu of %llu subtrees open", live.elapsed_s,
                        static_cast<unsigned long long>(live.nodes), static_cast<unsigned long long>(live.open),
                        static_cast<unsigned long long>(live.subtrees));
  } else {
    const topo::BnbResult& r = *run->proof;
    const topo::BnbProof all = r.overall();
    const std::string best = report::cost_text(run->result, r.best().best);
    if (all.optimal)
      ImGui::Text("Proved optimal: %s on %s; no placement costs less", best.c_str(), config.c_str());
    else
      ImGui::Text("Not proved (stopped by %s): best found %s, bound %s, gap %.2f%%",
                  r.stopped_by == "cancel" ? "Cancel" : r.stopped_by.c_str(), best.c_str(),
                  report::cost_text(run->result, all.best_bound).c_str(),
                  report::proof_gap_percent(r.best().best, all.best_bound));
    ImGui::TextDisabled("%llu nodes in %.2f s on %s (root bound %s)", static_cast<unsigned long long>(all.nodes),
                        all.seconds, r.device.c_str(), report::cost_text(run->result, all.root_bound).c_str());
  }

  // The network of the best placement once the proof has one (the selection); none while it runs.
  draw_plot_beside_network(
      [&]() -> std::optional<app::LoadedNetwork> {
        if (!proved || live.running) return std::nullopt;
        return doc.selected_network();
      },
      [&](bool) { ImGui::TextUnformatted("Gap over time"); },
      [&](float width, float height) { gap_plot(live.curve, width, height); }, config);
  if (proved && !live.running) configurations_table(*run);
  return true;
}

}  // namespace ks::ui::panels
