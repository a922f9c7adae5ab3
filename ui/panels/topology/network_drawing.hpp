#pragma once
// The network of a configuration with the load on each link, drawn with ImGui's draw list: vertices where
// LoadedNetwork lays them (SNDlib coordinates or a circle), each labelled with the node placed there; links
// wider and hotter (blue -> yellow -> red) the more traffic crosses them. Hover a link for its load.
#include "session/topology/link_loads.hpp"

namespace ks::ui::panels {

void draw_network(const app::LoadedNetwork& net, float width, float height);

}  // namespace ks::ui::panels
