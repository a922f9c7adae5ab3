#include "qt/simulation_brush.hpp"

#include "session/session.hpp"

namespace ks::ui::qt {

bool brush_active(const app::Session& session) {
  return session.simulating() && session.simulation().brush().enabled && session.simulation().has_frame();
}

void paint_stroke(app::Session& session, const ViewState& view, Size2 framebuffer, Vec2 from, Vec2 to) {
  if (!brush_active(session)) return;
  const Vec2 a = screen_to_image(view, framebuffer, from);
  const Vec2 b = screen_to_image(view, framebuffer, to);
  session.simulation().paint_line(a.x, a.y, b.x, b.y);
}

}  // namespace ks::ui::qt
