#pragma once
// What is drawn on the image, under the legend and the panels (ImGui's background draw list): the launch
// (launch_overlay.hpp) and the simulation brush's outline. The window and --screenshot draw them alike.
namespace ks::app {
class Session;
}

namespace ks::ui {

struct PanelState;

// Both overlays, the launch first. Call between ImGuiLayer::begin_frame and the legend.
// Keeps where the launch's header box was drawn in state.launch_header_rect.
void draw_image_overlays(const app::Session& session, PanelState& state);

// While a simulation's brush is on (Paint), a circle around the cell under the pointer (state.probe) holding
// the cells a stroke there sets: every cell within the brush's radius of it. White over a dark rim, so it shows
// on any colormap. Nothing when the pointer is off the image or over a panel.
void draw_brush_outline(const app::Session& session, const PanelState& state);

}  // namespace ks::ui
