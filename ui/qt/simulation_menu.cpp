#include "qt/simulation_menu.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>

#include "core/error.hpp"
#include "session/life_pattern_files.hpp"
#include "session/session.hpp"

namespace ks::ui::qt {

namespace {

constexpr int kMaxFramesAsked = 1000000;

void export_frames_dialog(const SimulationMenuContext& c) {
  if (!c.session.simulating() || !c.session.simulation().has_frame())
    return c.show_error("Export simulation frames", "Pick a simulation kernel first (life, heat or grayscott).");
  const QString dir = QFileDialog::getExistingDirectory(c.parent, "Folder for the frames", c.last_folder());
  if (dir.isEmpty()) return;
  bool ok = false;
  const int n = QInputDialog::getInt(c.parent, "Export simulation frames",
                                     "Write the next N steps as frame_00000.png, frame_00001.png, ...:", 100, 1,
                                     kMaxFramesAsked, 1, &ok);
  if (!ok) return;
  if (QFileInfo::exists(QDir(dir).filePath("frame_00000.png")) &&
      QMessageBox::question(c.parent, "Replace files?",
                            "The folder holds frames already; those with the same numbers will be replaced.",
                            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel) != QMessageBox::Yes)
    return;
  try {
    c.session.simulation().export_sequence(dir.toStdString(), n);
    c.status(QString("Writing %1 frames to %2 (Cancel in the progress box stops it)").arg(n).arg(dir));
  } catch (const Error& e) {
    c.show_error("Export simulation frames", QString::fromStdString(e.full_message()));
  }
}

void export_animation_dialog(const SimulationMenuContext& c) {
  constexpr const char* title = "Export simulation animation";
  if (!c.session.simulating() || !c.session.simulation().has_frame())
    return c.show_error(title, "Pick a simulation kernel first (life, heat or grayscott).");
  // Qt's save dialog asks before replacing an existing file.
  QString path = QFileDialog::getSaveFileName(c.parent, title, QDir(c.last_folder()).filePath("simulation.gif"),
                                              "Animated GIF (*.gif)");
  if (path.isEmpty()) return;
  if (!path.endsWith(".gif", Qt::CaseInsensitive)) path += ".gif";
  bool ok = false;
  const int n = QInputDialog::getInt(c.parent, title, "Frames (the first is the state shown now):", 100, 1,
                                     kMaxFramesAsked, 1, &ok);
  if (!ok) return;
  const int every = QInputDialog::getInt(c.parent, title, "Steps between frames:",
                                         c.session.simulation().steps_per_frame(), 1, kMaxFramesAsked, 1, &ok);
  if (!ok) return;
  try {
    c.session.simulation().export_animation(path.toStdString(), n, every, kDefaultGifDelayCs);
    c.status(QString("Writing a %1-frame GIF to %2 (Cancel in the progress box stops it)").arg(n).arg(path));
  } catch (const Error& e) {
    c.show_error(title, QString::fromStdString(e.full_message()));
  }
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
