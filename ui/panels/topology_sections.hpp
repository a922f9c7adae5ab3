#pragma once
// The two halves of the Topology panel; private to ui/panels.
#include "panels/topology_panel.hpp"

namespace ks::ui::panels {

// Traffic, topologies, metric, placements, backend, Run/Cancel (topology_controls.cpp).
void draw_topology_controls(app::TopologyDocument& doc, TopologyPanelState& state);
// Timeline, heatmap, network, histogram, top placements (topology_results.cpp).
void draw_topology_results(app::TopologyDocument& doc, TopologyPanelState& state);
// The placement search (topology_search.cpp): its settings, and its view of the results while it runs and after
// it (false, drawing nothing, when there is no search to show).
void draw_search_settings(app::TopologyDocument& doc, TopologyPanelState& state);
bool draw_search_results(app::TopologyDocument& doc, TopologyPanelState& state);

}  // namespace ks::ui::panels
