#pragma once
// The viewport's brush for live simulations: while the Simulation panel's "Paint" is on, a left drag on the image
// paints cells, heat or chemical along the pointer's path instead of panning.
#include "render/view_math.hpp"

namespace ks::app {
class Session;
}

namespace ks::ui::qt {

// A simulation runs and its brush is on.
bool brush_active(const app::Session& session);

// Paints the stroke between two screen positions (framebuffer pixels) of the view: discs of the brush along it,
// in cells of the simulation's grid. Parts outside the grid are clipped by the simulation.
void paint_stroke(app::Session& session, const ViewState& view, Size2 framebuffer, Vec2 from, Vec2 to);

}  // namespace ks::ui::qt
