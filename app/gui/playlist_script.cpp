#include "gui/playlist_script.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <string>
#include <utility>

#ifdef KS_HAVE_QTEST
#include <QTest>
#endif

#include "core/error.hpp"
#include "qt/main_window.hpp"
#include "qt/viewport_widget.hpp"
#include "session/playlist/playlist_player.hpp"

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

void press_key(ui::qt::MainWindow& window, const QString& name) {
  const std::pair<const char*, Qt::Key> keys[] = {{"space", Qt::Key_Space},   {"pagedown", Qt::Key_PageDown},
                                                  {"pageup", Qt::Key_PageUp}, {"left", Qt::Key_Left},
                                                  {"right", Qt::Key_Right},   {"escape", Qt::Key_Escape}};
  for (const auto& [key_name, key] : keys) {
    if (name != key_name) continue;
#ifdef KS_HAVE_QTEST
    // Window shortcuts fire only in the active window, as for a person at the keyboard: under Xvfb without a
    // window manager nothing activates it otherwise.
    if (!window.isActiveWindow()) {
      window.activateWindow();
      if (!QTest::qWaitForWindowActive(&window, 2000))
        throw_io("the window could not be made active for a key press");
    }
    QTest::keyClick(&window.viewport(), key);  // through the shortcut map first, as a real key press goes
    return;
#else
    (void)window;
    throw_usage("the script command 'key' needs Qt Test, and this kernelscope was built without it");
#endif
  }
  throw_usage("unknown key '" + name.toStdString() + "'", "space, pagedown, pageup, left, right or escape");
}

}  // namespace ks::gui
