// The Topology panel's placement search: its settings (one widget per parameter of the registry's "search"
// spec, the stop) beside the sweep's controls, and, while a search runs and after it, its view in the results
// half: the best cost so far with the gap to the best known, the convergence curve (live), the network with
// the best placement so far, and one row per configuration.
#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "report/topo_report.hpp"
#include "report/topo_search_report.hpp"
#include "core/error.hpp"
#include "panels/topology/network_drawing.hpp"
#include "panels/panel_sections.hpp"
#include "panels/topology/topology_sections.hpp"
#include "registry/registry.hpp"
#include "session/topology/topology_document.hpp"
#include "topo/inputs/numbers.hpp"

namespace ks::ui::panels {

namespace {

// Parameters whose help starts with "tabu:" or "CUDA tabu:" apply to the tabu search only, "anneal:" to the
// annealing only (the registry says so); the others to both.
bool applies(const ParamSpec& p, const std::string& algorithm) {
  const bool tabu = p.help.rfind("tabu:", 0) == 0 || p.help.rfind("CUDA tabu:", 0) == 0;
  const bool anneal = p.help.rfind("anneal:", 0) == 0;
  return (!tabu || algorithm == "tabu") && (!anneal || algorithm == "anneal");
}

void param_widget(ParamSet& params, TopologyPanelState& st, const ParamSpec& p) {
  ImGui::PushID(p.name.c_str());
  if (p.type == ParamType::Choice) {
    const std::string current = params.get_choice(p.name);
    if (ImGui::BeginCombo(p.name.c_str(), current.c_str())) {
      for (const auto& c : p.choices)
        if (ImGui::Selectable(c.c_str(), c == current) && c != current)
          attempt(st, [&] { params.set(p.name, c); });
      ImGui::EndCombo();
    }
  } else if (p.type == ParamType::Int) {
    int v = int(params.get_int(p.name));
    if (ImGui::InputInt(p.name.c_str(), &v, 0, 0, ImGuiInputTextFlags_EnterReturnsTrue))
      attempt(st, [&] { params.set(p.name, std::to_string(v)); });
  } else if (p.type == ParamType::Float) {
    double v = params.get_float(p.name);
    if (ImGui::InputDouble(p.name.c_str(), &v, 0, 0, "%.6g", ImGuiInputTextFlags_EnterReturnsTrue))
      attempt(st, [&] { params.set(p.name, fmt::format("{}", v)); });
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\nrange %s", p.help.c_str(), p.range_text().c_str());
  ImGui::PopID();
}

std::string cost_text(const topo::Problem& p, const topo::Cost& c) {
  return p.exact ? topo::format_scaled(c.scaled, p.decimals) : fmt::format("{:.10g}", c.value);
}

// The best cost over time as a step function, sampled at `samples` instants on a logarithmic time axis from
// the first improvement to `until` (a search's descent is fast, then slow), and a line at the reference cost.
void convergence_plot(const std::vector<topo::ConvergencePoint>& curve, double until,
                      std::optional<double> reference, float width, float height) {
  if (curve.empty()) return ImGui::TextDisabled("no improvement yet");
  constexpr int samples = 240;
  const double first = std::max(curve.front().time_s, 1e-4);
  const double last = std::max({until, curve.back().time_s, first * 10});
  std::vector<float> values(samples);
  std::size_t at = 0;
  for (int k = 0; k < samples; ++k) {
    const double t = first * std::pow(last / first, double(k) / (samples - 1));
    while (at + 1 < curve.size() && curve[at + 1].time_s <= t) ++at;
    values[std::size_t(k)] = float(curve[at].best.value);
  }
  float lo = *std::min_element(values.begin(), values.end()),
        hi = *std::max_element(values.begin(), values.end());
  if (reference) lo = std::min(lo, float(*reference));
  if (hi <= lo) hi = lo + std::max(1.0f, std::fabs(lo) * 0.01f);
  const float pad = (hi - lo) * 0.05f;
  const std::string overlay = fmt::format("best cost, time {:.2g} .. {:.3g} s (log)", first, last);
  ImGui::PlotLines("##curve", values.data(), samples, 0, overlay.c_str(), lo - pad, hi + pad,
                   ImVec2(width, height));
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s -> %s (%zu improvements)", fmt::format("{:.10g}", curve.front().best.value).c_str(),
                      fmt::format("{:.10g}", curve.back().best.value).c_str(), curve.size() - 1);
  if (!reference) return;
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  const float y = b.y - (b.y - a.y) * float((*reference - (lo - pad)) / ((hi + pad) - (lo - pad)));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (float x = a.x; x < b.x; x += 10)
    draw->AddLine(ImVec2(x, y), ImVec2(std::min(x + 6, b.x), y), IM_COL32(220, 60, 60, 255));
}

void configurations_table(const app::TopologyRun& run) {
  const topo::SearchResult& r = *run.search;
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY;
  if (!ImGui::BeginTable("##searched", 5, flags, ImVec2(0, ImGui::GetContentRegionAvail().y))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* h :
       {"configuration", "best cost", "time to best", "iterations", "placement (node at position 1, 2, ...)"})
    ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (const topo::ConfigurationSearch& c : r.configurations) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(run.inputs->configs[std::size_t(c.configuration)].name.c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(cost_text(*run.problem, c.best).c_str());
    ImGui::TableSetColumnIndex(2);
    ImGui::Text("%.3f s", c.time_to_best_s);
    ImGui::TableSetColumnIndex(3);
    ImGui::Text("%llu", static_cast<unsigned long long>(c.iterations));
    ImGui::TableSetColumnIndex(4);
    ImGui::TextUnformatted(report::joined(report::placement_names(run.inputs->traffic, c.placement)).c_str());
  }
  ImGui::EndTable();
}

}  // namespace

void draw_search_settings(app::TopologyDocument& doc, TopologyPanelState& st) {
  app::TopologySearchSettings& s = doc.settings().search;
  const KernelSpec& spec = KernelRegistry::builtin().get("search");
  const std::string algorithm = s.params.get_choice("algorithm");
  for (const ParamSpec& p : spec.params)
    if (applies(p, algorithm)) param_widget(s.params, st, p);
  ImGui::InputDouble("time (s)", &s.time_s, 0, 0, "%.3g");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Stop after this many seconds (split over the configurations); 0: none");
  int iterations = int(std::min<std::uint64_t>(s.iterations, 2000000000));
  if (ImGui::InputInt("iterations", &iterations, 0, 0)) s.iterations = std::uint64_t(std::max(0, iterations));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Stop after this many iterations per chain; 0: none");
  bool target = s.target.has_value();
  if (ImGui::Checkbox("stop at cost", &target)) s.target = target ? std::optional<double>(0.0) : std::nullopt;
  if (s.target) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    ImGui::InputDouble("##target", &*s.target, 0, 0, "%.10g");
  }
}

bool draw_search_results(app::TopologyDocument& doc, TopologyPanelState& /*state*/) {
  const app::SearchLive& live = doc.search_live();
  const app::TopologyRun* run = doc.run_result();
  const bool searched = run && run->search;
  if (!live.running && !searched) return false;
  const auto& inputs = live.running || !searched ? doc.inputs() : run->inputs;
  if (!inputs) return false;

  // The best so far, its gap, the rates.
  const std::optional<double> reference = live.reference;
  const std::string& reference_source = live.reference_source;
  const std::string config = inputs->configs.size() > std::size_t(live.configuration)
                                 ? inputs->configs[std::size_t(live.configuration)].name
                                 : std::string("-");
  const std::string best = live.placement.empty()      ? std::string("-")
                           : searched && !live.running ? cost_text(*run->problem, live.best)
                                                       : fmt::format("{:.10g}", live.best.value);
  ImGui::Text("%s: best %s on %s (configuration %d of %d)", live.running ? "Searching" : "Placement search",
              best.c_str(), config.c_str(), live.configuration + 1, std::max(1, live.configurations));
  if (reference && !live.placement.empty())
    ImGui::TextDisabled(
        "%s", report::gap_text(live.best.value, report::SearchReference{*reference, reference_source}).c_str());
  if (searched && !live.running) {
    const topo::SearchResult& r = *run->search;
    ImGui::TextWrapped(
        "%s, %d chains on %s: %.3g iterations/s, %.3g swap evaluations/s, %.2f s; stopped by %s",
        topo::to_string(r.params.algorithm), r.chains, r.device.c_str(), r.iterations_per_second,
        r.evaluations_per_second, r.seconds, r.stopped_by == "cancel" ? "Cancel" : r.stopped_by.c_str());
  } else {
    ImGui::TextDisabled("%.1f s, %llu iterations", live.elapsed_s,
                        static_cast<unsigned long long>(live.iterations));
  }

  draw_plot_beside_network(
      [&] { return doc.live_network(); },
      [&](bool drawable) {
        ImGui::TextUnformatted("Convergence");
        if (reference) {
          ImGui::SameLine();
          ImGui::TextColored(ImVec4(0.86f, 0.24f, 0.24f, 1), "- - %s %.10g", reference_source.c_str(), *reference);
        }
        if (!drawable && !live.placement.empty()) {
          ImGui::SameLine();
          ImGui::TextDisabled("(path costs only: no network to draw)");
        }
      },
      [&](float width, float height) { convergence_plot(live.curve, live.elapsed_s, reference, width, height); },
      config);
  if (searched && !live.running) configurations_table(*run);
  return true;
}

}  // namespace ks::ui::panels
