#pragma once
// Messages in the window's words. The library's errors are written for the command line ("use --param dt=0.25
// or less", "use --backend cpu"); the window has widgets, not flags, so the panels and dialogs show them with the
// flags turned into the names the widgets carry ("use dt = 0.25 or less", "use the CPU backend").
#include <functional>
#include <string>

namespace ks::ui {

std::string in_window_words(const std::string& text);

// `text` cut into lines of at most `width` (as `measure` gives a piece's width), at spaces only: ImGui's own
// wrapping also breaks after '.', which split "0.25" into "0." and "25". A word longer than a line stands alone;
// the text's own line breaks stay.
std::string wrapped_at_spaces(const std::string& text, float width,
                              const std::function<float(const std::string&)>& measure);

}  // namespace ks::ui
