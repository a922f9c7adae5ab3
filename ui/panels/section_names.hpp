#pragma once
// The sidebar's sections by the names --sections and playlists use
// (app/session/playlist/sidebar_sections.hpp).
#include <string>
#include <vector>

#include "panels/panels.hpp"

namespace ks::ui {

// Opens the named sections and closes the others; a usage Error names the known sections for an unknown one
// (and changes nothing).
void open_only_sections(PanelState& panels, const std::vector<std::string>& names);

}  // namespace ks::ui
