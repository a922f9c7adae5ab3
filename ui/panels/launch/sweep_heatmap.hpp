#pragma once
// The block sweep as a heatmap over block width x height, drawn with ImGui's draw list: colour from the fastest
// (bright) to the slowest (dark) median kernel time on a log scale, shapes the kernel cannot run crossed out,
// the fastest shape outlined, the current one marked. Hover shows the figures; a click picks that shape.
#include <optional>

#include "core/launch_shape.hpp"
#include "session/stencil/block_sweep.hpp"

namespace ks::ui::panels {

// Returns the shape clicked this frame, if any.
std::optional<BlockShape> draw_sweep_heatmap(const app::SweepGrid& grid, BlockShape current);

// 0 for the fastest time, 1 for the slowest, log-scaled (times span orders of magnitude across shapes).
float heat_of(double ms, double fastest_ms, double slowest_ms);

}  // namespace ks::ui::panels
