// The Topology panel's controls: what to sweep and how. Specs are built from the widgets in the syntax the
// CLI takes (gpu/topo/inputs/spec.hpp), shown, and handed to the document, which checks them.
#include <fmt/format.h>
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <string>

#include "core/device_info.hpp"
#include "core/error.hpp"
#include "core/timing.hpp"
#include "panels/panel_sections.hpp"
#include "panels/topology/topology_sections.hpp"
#include "session/topology/topology_document.hpp"

namespace ks::ui::panels {

namespace {

constexpr const char* kGenerators[] = {"uniform", "gravity", "hotspot", "allreduce", "alltoall", "ps"};
constexpr const char* kFamilies[] = {"ring", "mesh",      "torus",  "hypercube", "complete",
                                     "star", "leafspine", "random", "ocs"};
constexpr const char* kOcsBases[] = {"ring", "mesh", "torus", "hypercube", "complete", "star"};
constexpr int kSuggestedSamples = 1000000;  // as the CLI's hint when it refuses too large an n
constexpr const char* kPlacementModes[] = {"all (exhaustive)", "sample:N", "identity", "search (tabu, annealing)",
                                           "prove (branch and bound)"};

std::string generator_spec(const TopologyPanelState& st) {
  const std::string family = kGenerators[st.generator];
  std::string s = fmt::format("{}:n={},t={},seed={}", family, st.gen_nodes, st.gen_timestamps, st.gen_seed);
  if (family == "hotspot") s += fmt::format(",hot={}", st.gen_extra);
  if (family == "ps") s += fmt::format(",servers={}", st.gen_extra);
  return s;
}

std::string family_spec(const std::string& family, const TopologyPanelState& st) {
  if (family == "mesh" || family == "torus")
    return fmt::format("{}:{}x{}", family, st.fam_width, st.fam_height);
  if (family == "star") return fmt::format("star:center={}", st.fam_center);
  if (family == "leafspine")
    return fmt::format("leafspine:per_leaf={},spines={}", st.fam_per_leaf, st.fam_spines);
  if (family == "random") return fmt::format("random:d={},seed={}", st.fam_degree, st.fam_seed);
  return family;
}

std::string topology_spec(const TopologyPanelState& st) {
  const std::string family = kFamilies[st.family];
  if (family != "ocs") return family_spec(family, st);
  return fmt::format("ocs:base={},k={},seed={}", family_spec(kOcsBases[st.ocs_base], st), st.ocs_k,
                     st.fam_seed);
}

void family_parameters(TopologyPanelState& st, const std::string& family) {
  if (family == "mesh" || family == "torus") {
    ImGui::InputInt("width", &st.fam_width);
    ImGui::InputInt("height", &st.fam_height);
  } else if (family == "star") {
    ImGui::InputInt("centre", &st.fam_center);
  } else if (family == "leafspine") {
    ImGui::InputInt("per leaf", &st.fam_per_leaf);
    ImGui::InputInt("spines", &st.fam_spines);
  } else if (family == "random") {
    ImGui::InputInt("degree", &st.fam_degree);
  }
}

void traffic_controls(app::TopologyDocument& doc, TopologyPanelState& st) {
  ImGui::TextUnformatted("Traffic");
  ImGui::Separator();
  if (const auto& in = doc.inputs(); in && in->traffic.node_count() > 0) {
    ImGui::TextWrapped("%s", in->traffic.source.c_str());
    ImGui::TextDisabled("%d nodes, %d timestamp(s)%s%s", in->traffic.node_count(),
                        in->traffic.timestamp_count(), in->traffic.unit.empty() ? "" : ", unit ",
                        in->traffic.unit.c_str());
  } else {
    ImGui::TextDisabled("none yet");
  }
  ImGui::TextDisabled("Files: File > Open traffic dataset..., or drop one");
  ImGui::Combo("generator", &st.generator, kGenerators, IM_ARRAYSIZE(kGenerators));
  ImGui::InputInt("nodes", &st.gen_nodes);
  ImGui::InputInt("timestamps", &st.gen_timestamps);
  ImGui::InputInt("seed##traffic", &st.gen_seed);
  if (st.generator == 2) ImGui::InputInt("hot nodes", &st.gen_extra);
  if (st.generator == 5) ImGui::InputInt("servers", &st.gen_extra);
  const std::string spec = generator_spec(st);
  if (ImGui::Button("Generate")) attempt(st, [&] { doc.generate_traffic(spec); });
  ImGui::SameLine();
  ImGui::TextDisabled("%s", spec.c_str());
}

void topology_controls(app::TopologyDocument& doc, TopologyPanelState& st) {
  ImGui::Spacing();
  ImGui::TextUnformatted("Topology configurations");
  ImGui::Separator();
  const auto in = doc.inputs();
  bool has_own = false;
  if (in) {
    for (std::size_t i = 0; i < in->sources.size(); ++i) {
      int count = 0;
      for (int s : in->config_source) count += s == int(i);
      ImGui::PushID(int(i));
      if (ImGui::SmallButton("x")) {
        const int index = int(i);
        attempt(st, [&] { doc.remove_topology(index); });
        ImGui::PopID();
        break;  // the list changed under us
      }
      ImGui::SameLine();
      ImGui::Text("%s", in->sources[i].text.c_str());
      if (count != 1) {
        ImGui::SameLine();
        ImGui::TextDisabled("(%d configurations)", count);
      }
      ImGui::PopID();
      has_own = has_own || in->sources[i].text == app::kOwnLinks;
    }
    if (in->sources.empty()) ImGui::TextDisabled("none yet: add a family or a file");
  }
  ImGui::Combo("family", &st.family, kFamilies, IM_ARRAYSIZE(kFamilies));
  const std::string family = kFamilies[st.family];
  if (family == "ocs") {
    ImGui::Combo("base", &st.ocs_base, kOcsBases, IM_ARRAYSIZE(kOcsBases));
    family_parameters(st, kOcsBases[st.ocs_base]);
    ImGui::InputInt("matchings", &st.ocs_k);
  } else {
    family_parameters(st, family);
  }
  if (family == "random" || family == "ocs") ImGui::InputInt("seed##topology", &st.fam_seed);
  const std::string spec = topology_spec(st);
  if (ImGui::Button("Add")) attempt(st, [&] { doc.add_topology(spec); });
  ImGui::SameLine();
  ImGui::TextDisabled("%s", spec.c_str());
  ImGui::InputTextWithHint("##spec", "spec or file (SNDlib, nexthop, pathcost)", &st.spec_text);
  ImGui::SameLine();
  if (ImGui::Button("Add##text") && !st.spec_text.empty())
    attempt(st, [&] { doc.add_topology(st.spec_text); });
  if (in && in->traffic.own_links && !has_own && ImGui::Button("Add the traffic file's SNDlib links"))
    attempt(st, [&] { doc.add_topology(app::kOwnLinks); });
}

// Which GPUs sweep together (a worker each, chunks handed out as they finish); none ticked: every GPU.
void gpu_choice(app::TopologySettings& s, TopologyPanelState& st) {
  if (!st.gpus_listed) {
    for (const DeviceInfo& d : list_devices()) st.gpu_names.push_back(fmt::format("GPU {}: {}", d.index, d.name));
    st.gpus_listed = true;
  }
  if (st.gpu_names.size() < 2) return;
  ImGui::TextDisabled("GPUs (none ticked: all of them)");
  for (std::size_t i = 0; i < st.gpu_names.size(); ++i) {
    const auto at = std::find(s.gpus.begin(), s.gpus.end(), int(i));
    bool on = at != s.gpus.end();
    if (!ImGui::Checkbox(st.gpu_names[i].c_str(), &on)) continue;
    if (on) s.gpus.push_back(int(i));
    else s.gpus.erase(at);
  }
}

// Before Run: what the sweep will cost, counted as its progress line counts (every pass), and for "all" how
// long it will take, measured on this backend; a long one suggests the search, or sampling, instead.
void forecast_lines(app::TopologyDocument& doc, const app::SweepForecast& f, TopologyPanelState& st) {
  if (f.evaluations == 0) return note_text(f.error);  // a request that cannot run: why
  note_text(fmt::format("{:.4g} placements x {} slice{} x {} configuration{} = {:.4g} evaluations a pass",
                        double(f.placements), f.slices, f.slices == 1 ? "" : "s", f.configurations,
                        f.configurations == 1 ? "" : "s", double(f.evaluations_per_pass)));
  std::string total = fmt::format("{}: {} evaluations", f.passes, app::evaluation_count_text(f.evaluations));
  if (f.seconds) total += fmt::format(", about {} on {}", duration_words(*f.seconds), f.measured_on);
  else if (doc.settings().placements == "all") total += " (measuring the time...)";
  note_text(total);
  if (!f.error.empty()) note_text(f.error);  // the time could not be measured
  if (!f.seconds || *f.seconds <= app::kLongSweepS) return;
  const double limit = doc.settings().max_time_s;
  std::string warning = fmt::format("That is a long sweep (about {}).", duration_words(*f.seconds));
  if (limit > 0 && *f.seconds > limit)
    warning += fmt::format(" It exceeds the time limit of {}: it would stop after its first seconds.", duration_words(limit));
  // The proof first where it applies: it gives what the sweep's minimum gives, the best placement and that no
  // other is better, usually in seconds to minutes up to n = 20 (README, Proving optimality). Then the search:
  // past n = 14 random samples are far from good, and the search is the better answer there (README, Placement
  // search).
  if (f.provable)
    warning += " Branch and bound proves the best placement optimal without visiting every placement.";
  warning += fmt::format(" A search (tabu) finds a near-optimal placement in seconds; sampling {} random "
                         "placements gives the cost distribution.", kSuggestedSamples);
  warning_text(warning);
  if (f.provable) {
    if (named_button(st.buttons, "Prove instead")) doc.settings().placements = "bnb";
    ImGui::SameLine();
  }
  if (named_button(st.buttons, "Search instead")) doc.settings().placements = "search";
  ImGui::SameLine();
  if (named_button(st.buttons, "Sample instead")) {
    doc.settings().placements = fmt::format("sample:{}", kSuggestedSamples);
    st.samples = kSuggestedSamples;
  }
}

void sweep_controls(app::TopologyDocument& doc, TopologyPanelState& st) {
  ImGui::Spacing();
  ImGui::TextUnformatted("Sweep");
  ImGui::Separator();
  const auto in = doc.inputs();
  const bool given_costs = in && !in->qaplib_instance.empty();
  ImGui::BeginDisabled(given_costs);
  const std::string metric = in ? in->metric : "hops";
  if (ImGui::RadioButton("hops", metric == "hops")) attempt(st, [&] { doc.set_metric("hops"); });
  ImGui::SameLine();
  if (ImGui::RadioButton("weighted", metric == "weighted")) attempt(st, [&] { doc.set_metric("weighted"); });
  ImGui::SameLine();
  ImGui::TextDisabled(given_costs ? "(QAPLIB: given)" : "path cost");
  ImGui::EndDisabled();

  app::TopologySettings& s = doc.settings();
  // The widgets show the document's setting (a script or the screenshot path may have set it) and write it
  // back only when the user changes them.
  if (s.placements == "all")
    st.placement_mode = 0;
  else if (s.placements == "identity")
    st.placement_mode = 2;
  else if (s.placements == "search")
    st.placement_mode = 3;
  else if (s.placements == "bnb")
    st.placement_mode = 4;
  else if (s.placements.rfind("sample:", 0) == 0) {
    st.placement_mode = 1;
    st.samples = std::atoi(s.placements.c_str() + 7);
  }
  bool changed =
      ImGui::Combo("placements", &st.placement_mode, kPlacementModes, IM_ARRAYSIZE(kPlacementModes));
  if (st.placement_mode == 1) changed |= ImGui::InputInt("samples", &st.samples, 1000, 100000);
  if (changed)
    s.placements = st.placement_mode == 0   ? "all"
                   : st.placement_mode == 2 ? "identity"
                   : st.placement_mode == 3 ? "search"
                   : st.placement_mode == 4 ? "bnb"
                                            : fmt::format("sample:{}", st.samples);
  if (st.placement_mode == 3) draw_search_settings(doc, st);
  if (st.placement_mode == 4) draw_proof_settings(doc, st);
  int backend = s.backend == Backend::Cuda ? 1 : 0;
  ImGui::RadioButton("CPU", &backend, 0);
  ImGui::SameLine();
  ImGui::RadioButton("CUDA", &backend, 1);
  ImGui::SameLine();
  ImGui::TextDisabled("backend");
  s.backend = backend ? Backend::Cuda : Backend::Cpu;
  if (s.backend == Backend::Cuda) gpu_choice(s, st);
  ImGui::InputInt("top K", &s.top_k);
  int minutes = int(s.max_time_s / 60);
  if (ImGui::InputInt("time limit (min)", &minutes)) s.max_time_s = std::max(0, minutes) * 60.0;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("A sweep whose estimate, measured over its first seconds, exceeds this stops and says what "
                      "fits. 0: no limit");

  if (const app::SweepForecast* f = doc.forecast()) forecast_lines(doc, *f, st);

  const app::Worker::Status job = doc.job_status();
  if (job.busy) {
    ImGui::ProgressBar(job.fraction >= 0 ? float(job.fraction) : 0.0f, ImVec2(-1, 0));
    ImGui::TextDisabled("%s: %s (%.1f s)", job.label.c_str(), job.detail.c_str(), job.elapsed_s);
    if (job.cancel_requested)
      ImGui::TextDisabled("stopping...");
    else if (ImGui::Button("Cancel"))
      doc.cancel();
  } else {
    if (named_button(st.buttons, "Run", 120)) attempt(st, [&] { doc.run(); });
    if (doc.inputs_changed_since_run()) {
      note_text("The inputs changed since the result shown: Run to sweep them");
    }
  }
}

}  // namespace

bool attempt(TopologyPanelState& st, const std::function<void()>& change) {
  try {
    change();
    st.error.clear();
    return true;
  } catch (const Error& e) {
    st.error = e.full_message();
    return false;
  }
}

void draw_topology_controls(app::TopologyDocument& doc, TopologyPanelState& st) {
  traffic_controls(doc, st);
  topology_controls(doc, st);
  sweep_controls(doc, st);
}

}  // namespace ks::ui::panels
