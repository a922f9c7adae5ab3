#pragma once
// What `print-playlist` of a --script prints (and `playlist`, `next`, `previous` after they act):
//   playlist title="..." step=K/N bad=B caption="first line of the caption"
//   playlist note: what could not apply at this step (one line each)
// or "playlist none".
namespace ks::ui::qt {
class MainWindow;
}

namespace ks::gui {

void print_playlist(const ui::qt::MainWindow& window);

}  // namespace ks::gui
