#pragma once
// Buttons a --script can click by their label (click-button): the panels draw them through
// panels::named_button, which keeps their rectangles here for the frame, and scroll to one when asked.
#include <array>
#include <map>
#include <string>

namespace ks::ui {

struct NamedButtons {
  // The buttons drawn in the last frame where visible, by label: logical pixels (min x, min y, max x, max y).
  std::map<std::string, std::array<float, 4>> rects;
  std::string scroll_to;  // a button to scroll into view, until it is drawn
};

}  // namespace ks::ui
