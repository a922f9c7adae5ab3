#pragma once
// The two halves of the Topology panel; private to ui/panels.
#include "panels/topology_panel.hpp"

namespace ks::ui::panels {

// Traffic, topologies, metric, placements, backend, Run/Cancel (topology_controls.cpp).
void draw_topology_controls(app::TopologyDocument& doc, TopologyPanelState& state);
// Timeline, heatmap, network, histogram, top placements (topology_results.cpp).
void draw_topology_results(app::TopologyDocument& doc, TopologyPanelState& state);

}  // namespace ks::ui::panels
