// The view's side of a density-shown world (SimulationRunner::set_view_window): what part of it the screen shows.
#include "panels/panels.hpp"
#include "render/world_window.hpp"
#include "session/session.hpp"

namespace ks::ui {

void follow_view_window(app::Session& session, const ViewState& view, Size2 framebuffer) {
  if (!session.simulating() || !session.simulation().density_shown()) return;
  const app::SimulationFrame& frame = session.simulation().frame();
  if (framebuffer.width <= 0 || framebuffer.height <= 0) return;
  session.simulation().set_view_window(world_window(view, framebuffer, {frame.world_width, frame.world_height}));
}

}  // namespace ks::ui
