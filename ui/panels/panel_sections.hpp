#pragma once
// The sections of the sidebar and the helpers they share; private to ui/panels.
#include <functional>
#include <string>

#include "panels/panels.hpp"

namespace ks::app {
class Session;
}

namespace ks::ui::panels {

void draw_kernel_section(app::Session& session, PanelState& state);
void draw_user_kernel_section(app::Session& session, PanelState& state);  // stencil/user_kernel_section.cpp
void draw_user_step_section(app::Session& session, PanelState& state);    // simulation/user_step_section.cpp
void draw_launch_section(app::Session& session, PanelState& state);
void draw_timing_section(app::Session& session, PanelState& state);
void draw_device_section(app::Session& session, PanelState& state);
void draw_why_section(app::Session& session, PanelState& state);  // why_section.cpp
void draw_view_section(app::Session& session, PanelState& state);
void draw_source_section(app::Session& session, PanelState& state);  // source_section.cpp
// The Source section's own window, as wide as the free area left of a sidebar `right_margin` wide allows.
void draw_source_window(app::Session& session, PanelState& state, float right_margin);

// Runs a change the session may refuse; its ks::Error goes to state.error (shown in red) instead of escaping
// the frame. Returns whether the change was accepted.
bool try_change(PanelState& state, const std::function<void()>& change);

// One row of a two-column table: the name (with `help` as its tooltip) and the value.
void table_row(const char* name, const std::string& value, const char* help = nullptr);

// ImGui::Button, findable by --script's click-button: its rectangle goes to `buttons` while it is visible, and
// buttons.scroll_to naming it scrolls its window there. `width` 0: as wide as the label.
bool named_button(NamedButtons& buttons, const char* label, float width = 0);

// A tooltip of `text` wrapped at a readable width (30 em). `beside_x` >= 0: the tooltip's right edge stands
// there (logical pixels), level with the item, instead of under the cursor: a list's tooltips then leave the
// list in view.
void wrapped_tooltip(const std::string& text, float beside_x = -1);

// A "(?)" after the last item whose tooltip shows `text`.
void help_marker(const std::string& text);
// Text in the colour of errors / of notes, wrapped to the panel.
void error_text(const std::string& text);
void note_text(const std::string& text);
void warning_text(const std::string& text);  // amber: something to reconsider, not a failure
void wrapped_text(const std::string& text);  // the text colour, wrapped at spaces to the panel

}  // namespace ks::ui::panels
