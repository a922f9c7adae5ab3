#pragma once
// What the script runner (script_runner.hpp) reads from and does to the window beyond the session: the menus,
// a dropped file, the status and About texts, as plain lines a test can check.
#include <QEvent>
#include <QPointF>
#include <QString>
#include <QStringList>

#include "session/display_frame.hpp"

namespace ks::app {
class Session;
}
namespace ks::ui::qt {
class MainWindow;
}

namespace ks::gui {

// Every entry of the menu bar as "File/Open image... [Ctrl+O]" (shortcuts in portable text, several joined by
// ", "), submenus as "File/Open recent/...", separators left out.
QStringList menu_entries(const ui::qt::MainWindow& window);
// Triggers the entry "Menu/Entry" (its text without '&' and without the shortcut); a usage Error naming the
// entries when there is none of that name.
void trigger_menu_entry(ui::qt::MainWindow& window, const QString& path);
// A local file dropped on the window: the drag enters, is accepted or not, and drops, as Qt delivers it from a
// file manager. A usage Error when the window refuses the drag.
void drop_file(ui::qt::MainWindow& window, const QString& path);
// A left click at `position` (the viewport's logical pixels): move, press and release, as a mouse sends them.
void click_viewport(ui::qt::MainWindow& window, const QPointF& position);
// One mouse event on the viewport at a logical position: a press or release of the left button, or a move
// (`left_held`: with the button down, a drag).
void mouse_on_viewport(ui::qt::MainWindow& window, QEvent::Type type, const QPointF& position, bool left_held);
// "status input=NAME kernel=ID backend=cpu runs=N panels=on split=off zoom=0.88 colormap=gray
//  title=TITLE [last=kernel/variant]"
QString status_line(ui::qt::MainWindow& window, const app::Session& session);
// The About box's text without markup, on one line.
QString about_plain_text(const ui::qt::MainWindow& window);
// "gray", "viridis", "magma", "diverging"; a usage Error for other names.
ui::Colormap colormap_from_name(const std::string& name);

}  // namespace ks::gui
