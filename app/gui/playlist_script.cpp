#include "gui/playlist_script.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "qt/main_window.hpp"
#include "session/playlist_player.hpp"

namespace ks::gui {

void print_playlist(const ui::qt::MainWindow& window) {
  const app::PlaylistPlayer* p = window.playlist();
  if (!p) {
    std::puts("playlist none");
  } else {
    const app::PlaylistStep* step = p->current_step();
    const std::string caption = step ? step->caption.substr(0, step->caption.find('\n')) : std::string();
    std::puts(fmt::format("playlist title=\"{}\" step={}/{} bad={} caption=\"{}\"", p->playlist().title,
                          p->current() + 1, p->step_count(), p->playlist().error_count(), caption)
                  .c_str());
    for (const std::string& note : p->notes()) std::puts(("playlist note: " + note).c_str());
  }
  std::fflush(stdout);
}

}  // namespace ks::gui
