#pragma once
// Where the text boxes over the top of the image stand, in logical pixels, so that they stack instead of
// covering each other: the legend's own place (top left, one line), then the split's "input" / "output" labels,
// then the launch overlay's header box. Plain arithmetic on ImGui's line height; ui/imgui and ui/panels share it.
namespace ks::ui {

inline constexpr float kSplitLabelPad = 4.0f;  // around the label's text, inside its box

// The top of the split labels' text: below the legend's place and its margin.
inline float split_labels_top(float line_height) { return 24.0f + 3.0f * line_height + 24.0f; }

// The top of the launch overlay's header box: where the split labels would stand, below them when they are shown.
inline float launch_header_top(float line_height, bool split_labels_shown) {
  const float top = split_labels_top(line_height);
  return split_labels_shown ? top + line_height + 2 * kSplitLabelPad + 8.0f : top;
}

}  // namespace ks::ui
