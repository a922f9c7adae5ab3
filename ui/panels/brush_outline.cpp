#include <imgui.h>

#include <algorithm>

#include "panels/image_overlays.hpp"
#include "panels/launch/launch_overlay.hpp"
#include "panels/panels.hpp"
#include "session/session.hpp"

namespace ks::ui {

void draw_image_overlays(const app::Session& session, PanelState& state) {
  draw_launch_overlay(session, state);
  draw_brush_outline(session, state);
}

void draw_brush_outline(const app::Session& session, const PanelState& state) {
  if (!state.view || !state.probe || !state.probe->inside || !session.simulating()) return;
  const app::SimulationRunner& sim = session.simulation();
  if (!sim.brush().enabled || !sim.has_frame()) return;
  const ImGuiIO& io = ImGui::GetIO();
  const float scale = io.DisplayFramebufferScale.x > 0 ? io.DisplayFramebufferScale.x : 1.0f;
  const Size2 framebuffer{int(io.DisplaySize.x * scale + 0.5f), int(io.DisplaySize.y * scale + 0.5f)};
  // The centre of the cell under the pointer, where a stroke's disc is centred (SimulationRunner::paint_line).
  const Vec2 centre = image_to_screen(*state.view, framebuffer, {state.probe->x + 0.5, state.probe->y + 0.5});
  // Cells within the radius of the centre cell: their far edges reach half a cell further. Never smaller than a
  // few pixels, so a radius-0 brush on a zoomed-out grid still shows where it is.
  const float radius = std::max(4.0f, (float(sim.brush().radius) + 0.5f) * state.view->zoom / scale);
  const ImVec2 c(float(centre.x) / scale, float(centre.y) / scale);
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  draw->AddCircle(c, radius, IM_COL32(0, 0, 0, 200), 0, 3.0f);
  draw->AddCircle(c, radius, IM_COL32(255, 255, 255, 255), 0, 1.5f);
}

}  // namespace ks::ui
