#pragma once
// The best cost over timestamps (rows) x configurations (columns) as a heatmap drawn with ImGui's draw list:
// viridis from the lowest cost (dark) to the highest (bright), the best configuration of each timestamp
// dotted, the selected cell outlined. Hover shows the figures; a click selects that (timestamp,
// configuration).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "session/topology/topology_document.hpp"

namespace ks::ui::panels {

struct HeatmapLabels {
  std::vector<std::string> rows, cols;  // timestamp labels, configuration names
};

// Returns the (row, column) clicked this frame, if any. `width` x `height`: the area to fill (logical
// pixels). `per_row`: colours span each row's own range, so the configurations of a quiet timestamp differ as
// visibly as those of a busy one (costs follow the traffic's daily swing, which otherwise dominates).
std::optional<std::pair<int, int>> draw_cost_heatmap(const app::CostGrid& grid, const HeatmapLabels& labels,
                                                     int selected_row, int selected_col, float width,
                                                     float height, bool per_row);

}  // namespace ks::ui::panels
