#pragma once
// The two halves of the Topology panel; private to ui/panels.
#include <functional>
#include <optional>
#include <string>

#include "panels/topology/topology_panel.hpp"
#include "session/topology/link_loads.hpp"

namespace ks::ui::panels {

// Runs `change`; a refused one (ks::Error) shows in the panel instead of escaping (topology_controls.cpp).
bool attempt(TopologyPanelState& state, const std::function<void()>& change);
// Traffic, topologies, metric, placements, backend, Run/Cancel (topology_controls.cpp).
void draw_topology_controls(app::TopologyDocument& doc, TopologyPanelState& state);
// Timeline, heatmap, network, histogram, top placements (topology_results.cpp).
void draw_topology_results(app::TopologyDocument& doc, TopologyPanelState& state);
// The placement search (topology_search.cpp): its settings, and its view of the results while it runs and after
// it (false, drawing nothing, when there is no search to show).
void draw_search_settings(app::TopologyDocument& doc, TopologyPanelState& state);
bool draw_search_results(app::TopologyDocument& doc, TopologyPanelState& state);
// The top row of the search's and the proof's views (topology_plot_row.cpp): `header` (told whether a network
// will be drawn) and `plot` (given its width and height) on the left, the network `network` returns (it may throw:
// the reason is shown) with the best placement on `config` on the right.
void draw_plot_beside_network(const std::function<std::optional<app::LoadedNetwork>()>& network,
                              const std::function<void(bool drawable)>& header,
                              const std::function<void(float width, float height)>& plot, const std::string& config);
// The proof by branch and bound (topology_proof.cpp): its time limit, and its view while it runs and after it:
// nodes, open subtrees, bound, best found, the gap over time as a plot, the network of the best placement
// (false when there is no proof to show).
void draw_proof_settings(app::TopologyDocument& doc, TopologyPanelState& state);
bool draw_proof_results(app::TopologyDocument& doc, TopologyPanelState& state);

}  // namespace ks::ui::panels
