#pragma once
// The panels of a live simulation (shown while a kernel of category `simulation` is selected); private to
// ui/panels. The Kernel section draws its parameters, variant and backend from the registry as for stencils.
#include "panels/panels.hpp"

namespace ks::app {
class Session;
}

namespace ks::ui::panels {

// Simulation: play / pause, step, reset, steps per frame, generation and population / total heat, the start
// (parameters, loaded image, Life pattern), the grid size, the brush, and the frame-sequence export.
void draw_simulation_section(app::Session& session, PanelState& state);

// Timing while simulating: the last steps as a live plot, min / median / p95 per step, GB/s and % of the copy
// bandwidth, steps per second (kernel alone and as shown), the display path.
void draw_simulation_timing(app::Session& session, PanelState& state);

// follow_output for simulations: a fresh simulation gets its colormap and range once (life gray 0..255, heat
// magma over its initial range, grayscott viridis over v); the user's changes stay until the next fresh start.
// The view's picture goes back to the runner, so exported frames look like the window.
void follow_simulation(app::Session& session, PanelState& state);

}  // namespace ks::ui::panels
