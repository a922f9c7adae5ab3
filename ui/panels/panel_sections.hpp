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
void draw_launch_section(app::Session& session, PanelState& state);
void draw_timing_section(app::Session& session, PanelState& state);
void draw_device_section(app::Session& session, PanelState& state);
void draw_view_section(app::Session& session, PanelState& state);
void draw_source_section(app::Session& session, PanelState& state);  // source_section.cpp

// Runs a change the session may refuse; its ks::Error goes to state.error (shown in red) instead of escaping
// the frame. Returns whether the change was accepted.
bool try_change(PanelState& state, const std::function<void()>& change);

// One row of a two-column table: the name (with `help` as its tooltip) and the value.
void table_row(const char* name, const std::string& value, const char* help = nullptr);

// A "(?)" after the last item whose tooltip shows `text`.
void help_marker(const std::string& text);
// Text in the colour of errors / of notes, wrapped to the panel.
void error_text(const std::string& text);
void note_text(const std::string& text);

}  // namespace ks::ui::panels
