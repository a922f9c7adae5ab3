#pragma once
// What `print-playlist` of a --script prints (and `playlist`, `next`, `previous` after they act):
//   playlist title="..." step=K/N bad=B caption="first line of the caption"
//   playlist note: what could not apply at this step (one line each)
// or "playlist none". And `key NAME`: a key press on the viewport as from a keyboard or a presenter remote
// (window shortcuts included): space, pagedown, pageup, left, right, escape.
#include <QString>

namespace ks::ui::qt {
class MainWindow;
}

namespace ks::gui {

void print_playlist(const ui::qt::MainWindow& window);
// A usage Error for an unknown name, or where the app was built without Qt Test.
void press_key(ui::qt::MainWindow& window, const QString& name);

}  // namespace ks::gui
