#pragma once
// The launch drawn on the image (View > Launch grid, key G; the Launch section's checkbox): the block
// outlines in image space, following zoom and pan; the partial blocks past the right and bottom edges shaded
// (their threads are idle); the block under the cursor (or the probed pixel) with its shared tile and halo;
// the window the pixel reads; and a header and hover text in words (session/launch/launch_words.hpp). Drawn on
// ImGui's background draw list, under the legend and the panels: call it first, between
// ImGuiLayer::begin_frame and the legend.
namespace ks::app {
class Session;
}

namespace ks::ui {

struct PanelState;

// Draws nothing unless state.view is set and its show_launch_grid is on. The cursor's pixel is state.probe.
// Keeps where it drew its header box and the hover text in state.launch_header_rect and launch_hover_rect. Both
// boxes wrap their lines to the area beside the sidebar; the hover text stands below the header where it would
// cover it.
void draw_launch_overlay(const app::Session& session, PanelState& state);

// Block outlines are skipped when blocks are narrower than this on screen (logical pixels): a mesh of lines.
inline constexpr float kMinBlockOutlinePx = 4.0f;

}  // namespace ks::ui
