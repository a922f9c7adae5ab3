#pragma once
// The File menu's entries for live simulations: "Open Life pattern (RLE)...", "Export simulation frames..." and
// "... animation (GIF)...", and opening a dropped .rle file. Every action goes through the session; failures go to
// show_error. The exports ask for their counts here, then go the way of the Simulation section's buttons
// (panels/simulation/simulation_save_requests.hpp): one save dialog and one replace question for both.
#include <QString>
#include <functional>

#include "panels/save_request.hpp"

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
  // The window's save dialog, replace question and write (MainWindow::serve_save_request).
  std::function<bool(const SaveRequest& request)> serve_save;
};

void add_simulation_entries(QMenu* file, const SimulationMenuContext& context);

// Selects life and starts it from the pattern in `path`; false (and the error shown) when it cannot be read.
bool open_pattern_file(const SimulationMenuContext& context, const QString& path);

}  // namespace ks::ui::qt
