#pragma once
// The main window: menus (File, View, Kernel, Help), the viewport, the kernel editor's dock, the status bar
// (device, backend, last kernel time, display fps), drag and drop of files, settings kept between runs. Every action goes through the session;
// failures are shown (a dialog for what the user asked for, the status bar for background work) and the window
// keeps running.
#include <QLabel>
#include <QMainWindow>
#include <QSettings>
#include <QString>
#include <QTimer>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "usercode/user_kernel.hpp"

#include "panels/panels.hpp"
#include "qt/app_settings.hpp"

class QAction;
class QActionGroup;
class QMenu;

namespace ks::app {
class Session;
class PlaylistPlayer;
struct PlaylistViewChange;
}

namespace ks::ui::qt {

class ViewportWidget;
class KernelEditorDock;
struct SimulationMenuContext;  // qt/simulation_menu.hpp

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  MainWindow(app::Session& session, QSettings& settings, QWidget* parent = nullptr);
  ~MainWindow() override;

  ViewportWidget& viewport() noexcept { return *viewport_; }
  PanelState& panels() noexcept { return panels_; }
  // What the status bar says of the zoom ("zoom 88%").
  QString zoom_status() const;
  // The size of the first window (no saved geometry): 1280x800 where the screen has room for it.
  static QSize first_window_size();
  // View > Presenter view (F11): full screen, or back.
  void set_presenter_view(bool on);
  // View > Text size and High-contrast theme: the panels' appearance, remembered in the settings. Usage Error for
  // a size outside 13..32 points, nothing changed.
  void set_text_size(float points);
  void set_high_contrast(bool on);
  // View > Panels: shows or hides the sidebar (a fitted view is fitted again to the new free area).
  void set_panels_visible(bool on);
  // Off for scripted runs: failures go to the status bar and last_failure() instead of dialogs, and nothing
  // asks before overwriting.
  void set_interactive(bool on) noexcept { interactive_ = on; }
  // The last failure shown to the user (a dialog's title and text), for scripts; empty when none.
  const QString& last_failure() const noexcept { return last_failure_; }
  void clear_failure() { last_failure_.clear(); }
  // Whether a file given to open_file is still loading.
  bool opening() const noexcept { return !pending_open_.isEmpty(); }

  // The actions behind the menus, also used by the script runner. Those that write ask before replacing a file
  // (the result's sidecar included) and return false when the answer is no; each throws ks::Error on failure.
  void open_file(const QString& path);  // loads in the background; the result arrives through the session
  bool export_result(const QString& path, int png_bits);  // png_bits 8 or 16 for .png, 0: the input's depth
  bool save_viewport(const QString& path, bool with_panels);
  bool save_window(const QString& path);  // the whole window, menus and status bar included
  bool export_timings(const QString& path);
  // The Topology panel (main_window_topology.cpp): traffic loads in the background and opens the panel; export
  // by extension: .csv, .json (the document's exports) or .png (the viewport with the panel).
  void open_traffic(const QString& path);
  bool export_topology(const QString& path);

  // Demo playlists (main_window_playlist.cpp): a .json file or the name of an embedded demo; its first step
  // applies at once. A file that cannot be read throws ks::Error; bad steps are shown and skipped.
  void open_playlist(const QString& file_or_demo);
  bool playlist_next();      // false at the last step or without a playlist
  bool playlist_previous();  // false at the first step or without a playlist
  void playlist_go_to(int index);  // 0-based (a step clicked in the list)
  void close_playlist();     // the panels come back as they were before it
  const app::PlaylistPlayer* playlist() const noexcept { return playlist_.get(); }
  void show_playlist_error(const QString& message) { show_error("Open playlist", message); }

  // Scripted runs: the answer to "replace these files?" (yes until set); the path the next save or folder dialog
  // answers (none set: the dialog is cancelled); the questions and dialogs since the last call, taken.
  void set_overwrite_answer(bool replace) noexcept { overwrite_answer_ = replace; }
  void set_dialog_answer(QString path) { dialog_answer_ = std::move(path); }
  QStringList take_questions() { return std::exchange(questions_, QStringList()); }
  // A panel's export button asked for a file or folder (panels/save_request.hpp), or a menu entry did: the save
  // or folder dialog, the question before replacing files, then the write; a failure is shown. Returns whether
  // it wrote (false: cancelled, refused or failed).
  bool serve_save_request(const SaveRequest& request);
  // The kernel editor (main_window_editor.cpp; Kernel > Edit kernel...): opens FILE in it (false: the user kept
  // the text they had, or the file was refused and the error shown); busy while it compiles the current text.
  KernelEditorDock& kernel_editor() noexcept { return *editor_dock_; }
  bool edit_kernel(const QString& path);
  bool kernel_editor_busy() const;
  // Scripted runs: the answer to "save changes to the kernel?" (discard until set).
  void set_save_changes_answer(const QString& answer);  // save, discard or cancel; a usage Error otherwise

  // Help > About: version, GPU, driver and CUDA versions, GL renderer, the display path (rich text).
  QString about_text() const;

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void build_menus();
  void add_topology_file_actions(QMenu* file);
  // Runs the editor's kernel instead of the built-in (a stencil), keeping the values of parameters it shares with
  // the kernel it replaces; other families say where they run.
  void run_user_kernel(std::shared_ptr<const usercode::CompiledKernel> kernel, const QString& file_name);
  // The `array` family's Run: the kernel in the Lab, on a lab kernel's inputs (Session::use_user_array_kernel).
  void run_user_array_kernel(std::shared_ptr<const usercode::CompiledKernel> kernel, const QString& file_name);
  // main_window_user_step.cpp: a `step` kernel steps the live simulation its cells fit (life or heat), and while it
  // does, each compile of its file that succeeds replaces it (the state carries on).
  void run_user_step_kernel(std::shared_ptr<const usercode::CompiledKernel> kernel, const QString& file_name);
  void follow_user_step_edits();
  void add_kernel_editor(QMenu* file, QMenu* kernel);
  SimulationMenuContext simulation_menu_context();  // File menu entries and dropped .rle files of simulations
  void add_topology_view_action(QMenu* view);
  void add_presenter_actions(QMenu* view);
  void set_appearance(const Appearance& a);
  void add_playlist_file_actions(QMenu* file);
  void apply_playlist_view(const app::PlaylistViewChange& change);
  void after_playlist_step();
  void open_playlist_dialog();
  bool refresh_topology();
  static bool is_traffic_path(const QString& path);
  void rebuild_recent_menu();
  void tick();
  void handle_notices();
  void update_status();
  void update_title();
  void show_error(const QString& title, const QString& message);
  bool confirm_overwrite(const QStringList& paths);
  QString save_path(const QString& title, const QString& suggested, const QString& filters, QString* filter);
  QString folder_path(const QString& title);
  // The folder save dialogs open in: the last one an export was saved to, else the input image's folder, else
  // the last folder of any dialog.
  QString save_folder() const;
  // Non-interactive: the answer set by set_dialog_answer; a relative answer is taken in `folder`, as a name typed
  // into the dialog would be.
  QString scripted_dialog(const QString& title, const QString& folder);

  void open_dialog();
  void export_result_dialog();
  void screenshot_dialog(bool with_panels);
  void export_timings_dialog();
  void about();

  app::Session& session_;
  AppSettings settings_;
  PanelState panels_;
  ViewportWidget* viewport_ = nullptr;
  QMenu* recent_menu_ = nullptr;
  QAction* panels_action_ = nullptr;
  QAction* presenter_action_ = nullptr;
  QAction* contrast_action_ = nullptr;
  QActionGroup* text_size_group_ = nullptr;
  QAction* split_action_ = nullptr;
  QList<QAction*> playlist_actions_;  // next, previous, close: enabled, with their keys, during a playlist
  std::unique_ptr<app::PlaylistPlayer> playlist_;
  // The view before the playlist: what a step that does not say stands for, and what comes back when it ends (a
  // show changes no lasting setting).
  struct ViewBeforePlaylist {
    bool panels = true, split = false;
    Colormap colormap = Colormap::Gray;
  };
  std::optional<ViewBeforePlaylist> view_before_playlist_;
  bool playlist_colormap_ = false;  // a step chose the colormap (otherwise the View section's choice stands)
  QAction* launch_grid_action_ = nullptr;
  KernelEditorDock* editor_dock_ = nullptr;
  int save_changes_answer_ = 1;  // EditorDockContext::Answer for scripted runs: Discard
  QLabel* device_label_ = nullptr;
  QLabel* backend_label_ = nullptr;
  QLabel* kernel_label_ = nullptr;
  QLabel* fps_label_ = nullptr;
  QLabel* zoom_label_ = nullptr;
  QTimer timer_;
  QString pending_open_;  // the file being loaded in the background, for its dialog and the recent list
  QString traffic_loading_message_;  // the status bar's "Loading traffic ...", until that load ends
  bool interactive_ = true;
  bool overwrite_answer_ = true;
  QString dialog_answer_;
  QStringList questions_;
  QString last_failure_;
  int status_ticks_ = 0;
  std::uint64_t status_runs_ = 0;  // what the status bar and title show
  std::string status_input_;
};

}  // namespace ks::ui::qt
