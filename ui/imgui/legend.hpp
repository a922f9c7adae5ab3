#pragma once
// The colormap legend, drawn with ImGui over the image (on the background draw list, so panels stay on top): the
// renderer's own colormap texture as a bar, the values at its ends and middle, the colormap's name. Call between
// ImGuiLayer::begin_frame and end_frame_and_render, in the Qt viewport and in headless frames alike.
#include <array>
#include <optional>

#include "session/display_frame.hpp"

namespace ks::ui {

class FrameRenderer;

// Where the legend stands. On its own it takes the first corner of the area the sidebar leaves free (top left,
// top right, bottom right, bottom left) where it covers none of the image — the margins a fitted image leaves
// above or beside it — else the corner where it covers least. Dragged, it stays where it was put for the rest of
// the session (a double-click gives it back its own place).
struct LegendPlacement {
  float free_width = 0;  // logical pixels left of the sidebar; 0: the whole viewport
  struct Point {
    float x = 0, y = 0;
  };
  std::optional<Point> moved;  // its top-left corner where it was dragged (logical pixels)
  Point shown;                 // where it was drawn last (scripts and tests read it)
  bool drawn = false;          // whether the last frame drew it
};

// Draws nothing unless view.show_legend, the image shown is single-channel (the output's legend when there is an
// output, else the input's over its natural range) and the viewport has room for it (the legend takes at most
// half its width). A small ImGui window: it takes the mouse (a drag moves it, and does not pan the image), and the
// panels stay over it.
void draw_legend(const FrameRenderer& renderer, const ViewState& view, LegendPlacement& placement);

// Where the split's labels were drawn (render/overlay_rows.hpp); both 0 when they were not.
struct SplitLabelBoxes {
  std::array<float, 4> input{}, output{};
};

// With the before/after split on: "input" and "output" at the top of each half, beside the split line.
SplitLabelBoxes draw_split_labels(const FrameRenderer& renderer, const ViewState& view);

}  // namespace ks::ui
