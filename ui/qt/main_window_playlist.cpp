// Demo playlists in the window: File > Open playlist..., File > Demo playlists, the keys of a presenter
// (Space, Page Down and Right for the next step; Page Up and Left for the previous one; Escape ends it), and
// the view's part of each step (panels, split, colormap). The playlist itself is Qt-free
// (session/playlist/playlist_player.hpp).
#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QMenu>
#include <QStatusBar>

#include "core/error.hpp"
#include "panels/section_names.hpp"
#include "qt/main_window.hpp"
#include "qt/viewport_widget.hpp"
#include "session/display_frame.hpp"
#include "session/playlist/playlist.hpp"
#include "session/playlist/playlist_player.hpp"

namespace ks::ui::qt {

namespace {

QString q(const std::string& s) {
  return QString::fromStdString(s);
}

Colormap colormap_named(const std::string& name) {
  for (Colormap m : all_colormaps())
    if (colormap_name(m) == name) return m;
  return Colormap::Gray;  // unreachable: the playlist checked the name
}

}  // namespace

void MainWindow::add_playlist_file_actions(QMenu* file) {
  file->addSeparator();
  file->addAction("Open &playlist...", this, &MainWindow::open_playlist_dialog);
  QMenu* demos = file->addMenu("&Demo playlists");
  for (const std::string& name : app::demo_playlist_names())
    demos->addAction(q(name), this, [this, name] {
      try {
        open_playlist(q(name));
      } catch (const Error& e) {
        show_error("Open playlist", q(e.full_message()));
      }
    });
  // The keys work only while a playlist runs; otherwise Space and the arrows keep their usual meaning. While
  // a panel's text field has the keyboard they are text (ViewportWidget::event takes the shortcut override).
  QAction* next = file->addAction("&Next step", this, [this] { playlist_next(); });
  next->setShortcuts(
      {QKeySequence(Qt::Key_Space), QKeySequence(Qt::Key_PageDown), QKeySequence(Qt::Key_Right)});
  QAction* previous = file->addAction("Pre&vious step", this, [this] { playlist_previous(); });
  previous->setShortcuts({QKeySequence(Qt::Key_PageUp), QKeySequence(Qt::Key_Left)});
  QAction* close =
      file->addAction("&Close playlist", QKeySequence(Qt::Key_Escape), this, &MainWindow::close_playlist);
  playlist_actions_ = {next, previous, close};
  for (QAction* a : playlist_actions_) a->setEnabled(false);
}

void MainWindow::open_playlist_dialog() {
  const QString path = QFileDialog::getOpenFileName(this, "Open playlist", settings_.last_folder(),
                                                    "Playlists (*.json);;All files (*)");
  if (path.isEmpty()) return;
  try {
    open_playlist(path);
  } catch (const Error& e) {
    show_error("Open playlist", q(e.full_message()));
  }
}

void MainWindow::open_playlist(const QString& file_or_demo) {
  app::Playlist playlist =
      app::load_playlist_or_demo(file_or_demo.toStdString());  // throws; nothing changed yet
  const int bad = playlist.error_count();
  if (!view_before_playlist_)
    view_before_playlist_ = {panels_.visible, viewport_->view().split, viewport_->view().colormap};
  playlist_ = std::make_unique<app::PlaylistPlayer>(std::move(playlist));
  panels_.playlist = playlist_.get();
  for (QAction* a : playlist_actions_) a->setEnabled(true);
  apply_playlist_view(playlist_->go_to(session_, 0));
  after_playlist_step();
  if (bad > 0)  // each bad step says why in the step list and when it is reached; here how many there are
    statusBar()->showMessage(QString("Playlist: %1 of %2 steps cannot be used (shown in red)")
                                 .arg(bad)
                                 .arg(playlist_->step_count()),
                             10000);
}

bool MainWindow::playlist_next() {
  app::PlaylistViewChange change;
  if (!playlist_ || !playlist_->next(session_, &change)) return false;
  apply_playlist_view(change);
  after_playlist_step();
  return true;
}

bool MainWindow::playlist_previous() {
  app::PlaylistViewChange change;
  if (!playlist_ || !playlist_->previous(session_, &change)) return false;
  apply_playlist_view(change);
  after_playlist_step();
  return true;
}

void MainWindow::playlist_go_to(int index) {
  if (!playlist_) return;
  apply_playlist_view(playlist_->go_to(session_, index));
  after_playlist_step();
}

void MainWindow::close_playlist() {
  if (!playlist_) return;
  panels_.playlist = nullptr;
  playlist_.reset();
  for (QAction* a : playlist_actions_) a->setEnabled(false);
  if (view_before_playlist_) apply_playlist_view({});  // every part as before
  view_before_playlist_.reset();
  viewport_->update();
  statusBar()->showMessage("Playlist closed", 3000);
}

// What no step so far has set is as it was before the playlist, so going back shows what the audience saw.
void MainWindow::apply_playlist_view(const app::PlaylistViewChange& change) {
  const ViewBeforePlaylist before = view_before_playlist_.value_or(ViewBeforePlaylist{});
  const bool panels = change.panels.value_or(before.panels);
  if (panels != panels_.visible) set_panels_visible(panels);
  const bool split = change.split.value_or(before.split);
  if (split != viewport_->view().split) viewport_->set_split(split);
  if (change.colormap)
    viewport_->view().colormap = colormap_named(*change.colormap);
  else if (playlist_colormap_)
    viewport_->view().colormap = before.colormap;
  playlist_colormap_ = change.colormap.has_value();
  if (change.sections) ui::open_only_sections(panels_, *change.sections);  // checked when the playlist was read
}

void MainWindow::after_playlist_step() {
  update_title();
  viewport_->update();
}

}  // namespace ks::ui::qt
