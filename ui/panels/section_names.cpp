#include "panels/section_names.hpp"

#include <fmt/format.h>

#include <utility>

#include "core/error.hpp"
#include "session/playlist/sidebar_sections.hpp"

namespace ks::ui {

void open_only_sections(PanelState& panels, const std::vector<std::string>& names) {
  const std::pair<std::string_view, bool*> known[] = {
      {"kernel", &panels.kernel_open}, {"launch", &panels.launch_open},
      {"timing", &panels.timing_open}, {"device", &panels.device_open},
      {"view", &panels.view_open},     {"simulation", &panels.simulation_open},
      {"lab", &panels.lab_open},       {"roofline", &panels.roofline_open},
      {"source", &panels.source_open}, {"why", &panels.why_open}};
  static_assert(sizeof(known) / sizeof(known[0]) == app::kSidebarSections.size(),
                "every section name has its section");
  for (const std::string& n : names) {
    bool found = false;
    for (const auto& entry : known) found = found || entry.first == n;
    if (!found)
      throw_usage(fmt::format("no section '{}'", n), fmt::format("sections: {}", app::kSidebarSectionList));
  }
  for (const auto& [name, open] : known) {
    *open = false;
    for (const std::string& n : names)
      if (n == name) *open = true;
  }
}

}  // namespace ks::ui
