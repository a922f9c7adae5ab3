#include "qt/simulation_menu.hpp"

#include <QFileDialog>
#include <QInputDialog>
#include <QMenu>

#include "core/error.hpp"
#include "panels/simulation/simulation_save_requests.hpp"
#include "session/simulation/life_pattern_files.hpp"
#include "session/session.hpp"

namespace ks::ui::qt {

namespace {

constexpr int kMaxFramesAsked = 1000000;

bool have_frame(const SimulationMenuContext& c, const char* title) {
  if (c.session.simulating() && c.session.simulation().has_frame()) return true;
  c.show_error(title, "Pick a simulation kernel first (life, heat or grayscott).");
  return false;
}

void export_frames_dialog(const SimulationMenuContext& c) {
  if (!have_frame(c, "Export simulation frames")) return;
  bool ok = false;
  const int n = QInputDialog::getInt(c.parent, "Export simulation frames",
                                     "Write the next N steps as frame_00000.png, frame_00001.png, ...:", 100, 1,
                                     kMaxFramesAsked, 1, &ok);
  if (ok) c.serve_save(simulation_frames_request(c.session, n));
}

void export_animation_dialog(const SimulationMenuContext& c) {
  constexpr const char* title = "Export simulation animation";
  if (!have_frame(c, title)) return;
  bool ok = false;
  const int n = QInputDialog::getInt(c.parent, title, "Frames (the first is the state shown now):", 100, 1,
                                     kMaxFramesAsked, 1, &ok);
  if (!ok) return;
  const int every = QInputDialog::getInt(c.parent, title, "Steps between frames:",
                                         c.session.simulation().steps_per_frame(), 1, kMaxFramesAsked, 1, &ok);
  if (ok) c.serve_save(simulation_gif_request(c.session, n, every));
}

}  // namespace

bool open_pattern_file(const SimulationMenuContext& c, const QString& path) {
  try {
    app::open_life_pattern(c.session, path.toStdString());
    c.status("Opened the Life pattern " + path);
    return true;
  } catch (const Error& e) {
    c.show_error("Open Life pattern", QString::fromStdString(e.full_message()));
    return false;
  }
}

void add_simulation_entries(QMenu* file, const SimulationMenuContext& context) {
  file->addAction("Open &Life pattern (RLE)...", context.parent, [c = context] {
    const QString path = QFileDialog::getOpenFileName(c.parent, "Open Life pattern", c.last_folder(),
                                                      "Life patterns (*.rle);;All files (*)");
    if (!path.isEmpty()) open_pattern_file(c, path);
  });
  file->addAction("Export simulation &frames...", context.parent, [c = context] { export_frames_dialog(c); });
  file->addAction("Export simulation &animation (GIF)...", context.parent,
                  [c = context] { export_animation_dialog(c); });
}

}  // namespace ks::ui::qt
