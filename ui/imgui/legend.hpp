#pragma once
// The colormap legend, drawn with ImGui over the image (on the background draw list, so panels stay on top): the
// renderer's own colormap texture as a bar, the values at its ends and middle, the colormap's name. Call between
// ImGuiLayer::begin_frame and end_frame_and_render, in the Qt viewport and in headless frames alike.
#include "session/display_frame.hpp"

namespace ks::ui {

class FrameRenderer;

// Draws nothing unless view.show_legend, the image shown is single-channel (the output's legend when there is an
// output, else the input's over its natural range) and the viewport has room for it (about 240 x 70 points in
// its top-left quarter).
void draw_legend(const FrameRenderer& renderer, const ViewState& view);

// With the before/after split on: "input" and "output" at the top of each half, beside the split line.
void draw_split_labels(const FrameRenderer& renderer, const ViewState& view);

}  // namespace ks::ui
