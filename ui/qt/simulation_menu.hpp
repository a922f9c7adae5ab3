#pragma once
// The File menu's entries for live simulations: "Open Life pattern (RLE)..." and "Export simulation frames...",
// and opening a dropped .rle file. Every action goes through the session; failures go to show_error.
#include <QString>
#include <functional>

class QMenu;
class QWidget;

namespace ks::app {
class Session;
}

namespace ks::ui::qt {

struct SimulationMenuContext {
  app::Session& session;
  QWidget* parent;
  std::function<void(const QString& title, const QString& message)> show_error;
  std::function<QString()> last_folder;
  std::function<void(const QString& message)> status;
};

void add_simulation_entries(QMenu* file, const SimulationMenuContext& context);

// Selects life and starts it from the pattern in `path`; false (and the error shown) when it cannot be read.
bool open_pattern_file(const SimulationMenuContext& context, const QString& path);

}  // namespace ks::ui::qt
