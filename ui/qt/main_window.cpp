#include "qt/main_window.hpp"

#include <fmt/format.h>
#include <imgui.h>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QGuiApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QRegularExpression>
#include <QScreen>
#include <QStatusBar>
#include <filesystem>
#include <utility>

#include "report/text_format.hpp"
#include "core/error.hpp"
#include "io/image_io.hpp"
#include "panels/window_words.hpp"
#include "qt/editor/kernel_editor.hpp"
#include "qt/editor/kernel_editor_dock.hpp"
#include "qt/eliding_status_bar.hpp"
#include "qt/focus_after_dialogs.hpp"
#include "qt/qimage_convert.hpp"
#include "qt/simulation_menu.hpp"
#include "qt/viewport_widget.hpp"
#include "session/exports.hpp"
#include "session/lab/lab_commands.hpp"
#include "session/playlist/playlist_player.hpp"
#include "session/simulation/life_pattern_files.hpp"
#include "session/session.hpp"

namespace ks::ui::qt {

namespace {

constexpr int kTickMs = 16;          // the session is polled and the viewport refreshed at up to 60 Hz
constexpr int kStatusEveryTicks = 15;  // the status bar changes at about 4 Hz: readable, and cheap
constexpr double kZoomStep = 1.5;

QString q(const std::string& s) { return QString::fromStdString(s); }
std::filesystem::path path_of(const QString& s) { return std::filesystem::path(s.toStdString()); }

const char* kImageFilters =
    "Images (*.png *.jpg *.jpeg *.bmp *.tga *.gif *.psd *.hdr *.pic *.pgm *.ppm *.pnm *.npy);;All files (*)";
const char* kPng8 = "PNG, 8-bit (*.png)";
const char* kPng16 = "PNG, 16-bit (*.png)";
const char* kResultFilters =
    "PNG, 8-bit (*.png);;PNG, 16-bit (*.png);;JPEG (*.jpg *.jpeg);;BMP (*.bmp);;TGA (*.tga);;Radiance HDR (*.hdr);;"
    "NumPy array, u8/f32 values as computed (*.npy)";
const char* kShotFilters = "PNG (*.png);;JPEG (*.jpg *.jpeg);;BMP (*.bmp);;TGA (*.tga)";
const char* kTimingFilters = "CSV (*.csv);;JSON (*.json)";

// A file name without an extension gets the one of the filter chosen in the dialog ("PNG (*.png)" -> .png).
QString with_extension(QString path, const QString& filter) {
  if (!QFileInfo(path).suffix().isEmpty()) return path;
  const int star = filter.indexOf("*.");
  if (star < 0) return path;
  const int end = filter.indexOf(QRegularExpression("[ )]"), star);
  return path + filter.mid(star + 1, end - star - 1);
}

// "zoom 88%", "zoom 400%": what the status bar says of the view (whole percents; tenths below 10%).
QString zoom_text(float zoom) {
  const double percent = double(zoom) * 100;
  return QString("zoom %1%").arg(percent, 0, 'f', percent < 10 ? 1 : 0);
}

}  // namespace

MainWindow::MainWindow(app::Session& session, QSettings& settings, QWidget* parent)
    : QMainWindow(parent), session_(session), settings_(settings) {
  settings_.load_panels(panels_);
  viewport_ = new ViewportWidget(session_, panels_, this);
  viewport_->set_appearance(settings_.appearance());
  setCentralWidget(viewport_);
  new FocusAfterDialogs(*this, *viewport_);  // owned by the window
  setStatusBar(new ElidingStatusBar(this));
  setAcceptDrops(true);
  build_menus();

  device_label_ = new QLabel(this);
  backend_label_ = new QLabel(this);
  kernel_label_ = new QLabel(this);
  fps_label_ = new QLabel(this);
  zoom_label_ = new QLabel(this);
  zoom_label_->setToolTip("The image's zoom: screen pixels per image pixel (View > Fit, 1:1, Zoom in/out)");
  for (QLabel* l : {device_label_, backend_label_, kernel_label_, zoom_label_, fps_label_})
    statusBar()->addPermanentWidget(l);
  connect(viewport_, &ViewportWidget::render_error, this,
          [this](const QString& m) { statusBar()->showMessage("Display: " + m, 10000); });

  resize(first_window_size());
  if (const QByteArray g = settings_.geometry(); !g.isEmpty()) restoreGeometry(g);
  connect(&timer_, &QTimer::timeout, this, &MainWindow::tick);
  timer_.start(kTickMs);
  update_title();
  update_status();
}

MainWindow::~MainWindow() = default;

void MainWindow::build_menus() {
  QMenu* file = menuBar()->addMenu("&File");
  file->addAction("&Open image...", QKeySequence::Open, this, &MainWindow::open_dialog);
  recent_menu_ = file->addMenu("Open &recent");
  connect(recent_menu_, &QMenu::aboutToShow, this, &MainWindow::rebuild_recent_menu);
  file->addAction("Open the &sample", this, [this] {
    try {
      session_.open_sample();
      update_title();
    } catch (const Error& e) {
      show_error("Open the sample", q(e.full_message()));
    }
  });
  add_topology_file_actions(file);
  add_playlist_file_actions(file);
  add_simulation_entries(file, simulation_menu_context());
  file->addSeparator();
  auto* kernel = new QMenu("&Kernel", this);
  add_kernel_editor(file, kernel);
  file->addSeparator();
  file->addAction("&Export result image...", QKeySequence::Save, this, &MainWindow::export_result_dialog);
  file->addAction("Save &screenshot...", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), this,
                  [this] { screenshot_dialog(true); });
  file->addAction("Save screenshot &without panels...", this, [this] { screenshot_dialog(false); });
  file->addAction("Export &timings...", QKeySequence(Qt::CTRL | Qt::Key_T), this, &MainWindow::export_timings_dialog);
  file->addSeparator();
  file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);

  QMenu* view = menuBar()->addMenu("&View");
  view->addAction("&Fit", QKeySequence(Qt::Key_F), this, [this] { viewport_->fit(); });
  view->addAction("&1:1", QKeySequence(Qt::Key_1), this, [this] { viewport_->one_to_one(); });
  QAction* zoom_in = view->addAction("Zoom &in", this, [this] { viewport_->zoom_by(kZoomStep); });
  zoom_in->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal)});
  QAction* zoom_out = view->addAction("Zoom &out", this, [this] { viewport_->zoom_by(1.0 / kZoomStep); });
  zoom_out->setShortcuts({QKeySequence::ZoomOut, QKeySequence(Qt::Key_Minus)});
  view->addSeparator();
  panels_action_ = view->addAction("&Panels", QKeySequence(Qt::Key_P), this,
                                   [this](bool on) { set_panels_visible(on); });
  panels_action_->setCheckable(true);
  panels_action_->setChecked(panels_.visible);
  split_action_ = view->addAction("&Before/after split", QKeySequence(Qt::Key_S), this,
                                  [this](bool on) { viewport_->set_split(on); });
  split_action_->setCheckable(true);
  launch_grid_action_ = view->addAction("&Launch grid", QKeySequence(Qt::Key_G), this,
                                        [this](bool on) { viewport_->set_launch_grid(on); });
  launch_grid_action_->setCheckable(true);
  add_topology_view_action(view);
  add_presenter_actions(view);
  menuBar()->addMenu(kernel);

  QMenu* help = menuBar()->addMenu("&Help");
  help->addAction("&About kernelscope", this, &MainWindow::about);
}

void MainWindow::rebuild_recent_menu() {
  recent_menu_->clear();
  const QStringList files = settings_.recent_files();
  for (const QString& f : files) recent_menu_->addAction(f, this, [this, f] { open_file(f); });
  if (files.isEmpty()) recent_menu_->addAction("(none)")->setEnabled(false);
  recent_menu_->addSeparator();
  recent_menu_->addAction("Clear the list", this, [this] { settings_.clear_recent_files(); })
      ->setEnabled(!files.isEmpty());
}

// ---- the frame tick: collect results, show notices, refresh ----

void MainWindow::tick() {
  try {
    session_.poll();
  } catch (const std::exception& e) {
    // Results are applied here; one that fails must not end the app (exceptions must not cross Qt's loop).
    const Error* error = dynamic_cast<const Error*>(&e);
    statusBar()->showMessage(q(error ? error->full_message() : e.what()), 10000);
  }
  handle_notices();
  // Taken before serving: a dialog's own event loop runs tick again, which must not serve them twice.
  for (const SaveRequest& r : std::exchange(panels_.save_requests, {})) serve_save_request(r);
  if (const std::optional<int> step = std::exchange(panels_.playlist_clicked, std::nullopt)) playlist_go_to(*step);
  if (const std::optional<EditCopyRequest> copy = std::exchange(panels_.edit_copy, std::nullopt))
    editor_dock_->open_untitled(q(copy->text), q(copy->file_name));
  if (split_action_->isChecked() != viewport_->view().split) split_action_->setChecked(viewport_->view().split);
  if (launch_grid_action_->isChecked() != viewport_->view().show_launch_grid)  // the Launch section's checkbox
    launch_grid_action_->setChecked(viewport_->view().show_launch_grid);
  if (panels_action_->isChecked() != panels_.visible) panels_action_->setChecked(panels_.visible);
  viewport_->refresh_if_needed();
  if (const QString z = zoom_text(viewport_->view().zoom); zoom_label_->text() != z) zoom_label_->setText(z);
  refresh_topology();
  // At about 4 Hz, and at once when a result or a new image arrives (also the sample that main() opens).
  const bool news = session_.runs_applied() != status_runs_ || session_.input_name() != status_input_;
  if (++status_ticks_ >= kStatusEveryTicks || news) {
    status_ticks_ = 0;
    status_runs_ = session_.runs_applied();
    status_input_ = session_.input_name();
    update_title();
    update_status();
  }
}

void MainWindow::handle_notices() {
  using Notice = app::Session::Notice;
  for (const Notice& n : session_.take_notices()) {
    if (n.source == Notice::Source::Export && n.level == Notice::Level::Error) {
      show_error("Export result", q(n.text));
      continue;
    }
    const bool load = n.source == Notice::Source::Load;
    if (load && !pending_open_.isEmpty()) {
      const QString path = std::exchange(pending_open_, QString());
      if (n.level == Notice::Level::Cancelled) {  // the image shown stays; the status bar says so below
        statusBar()->showMessage(q(n.text), 4000);
        continue;
      }
      if (n.level == Notice::Level::Error) {
        settings_.remove_recent_file(path);
        if (!session_.has_input()) session_.open_sample();  // something to show rather than nothing
        show_error("Open image", q(n.text));
        continue;
      }
      settings_.add_recent_file(path);
      settings_.set_last_folder(QFileInfo(path).absolutePath());
      update_title();
    }
    statusBar()->showMessage(q(in_window_words(n.text)), n.level == Notice::Level::Error ? 10000 : 4000);
  }
}

void MainWindow::update_status() {
  const app::DeviceStatus& d = session_.device();
  device_label_->setText(d.cuda ? q(d.info.name) : q(d.cpu) + " (no CUDA)");
  device_label_->setToolTip(d.cuda ? QString() : q("The CPU backend is in use: " + d.unavailable_reason));
  std::string backend = "CPU backend";
  if (session_.backend() == Backend::Cuda)
    backend = fmt::format("CUDA {}, block {}", session_.effective_variant(), to_string(session_.effective_block()));
  backend_label_->setText(q(backend));
  const auto& r = session_.last_report();
  kernel_label_->setText(r ? q(fmt::format("{} {} ms", r->kernel, report::format_ms(r->kernel_time.median_ms)))
                           : QString("no run yet"));
  if (session_.simulating()) {  // a live simulation: its generation and median step time
    const auto& sim = session_.simulation();
    kernel_label_->setText(q(fmt::format("{} generation {}, {} ms/step", session_.kernel().id, sim.generation(),
                                         report::format_ms(sim.timing().stats.median_ms))));
  }
  if (session_.in_lab()) kernel_label_->setText(q(app::lab_status_bar_text(session_)));  // its last run
  zoom_label_->setText(zoom_text(viewport_->view().zoom));
  const double fps = viewport_->display_fps();
  fps_label_->setText(fps > 0 ? QString("%1 fps").arg(fps, 0, 'f', 0) : QString("display idle"));
  fps_label_->setToolTip(q("display path: " + viewport_->display_path()));
}

void MainWindow::update_title() {
  const std::string name = session_.has_input() ? session_.input_name() : std::string("no image");
  setWindowTitle(q(std::filesystem::path(name).filename().string()) + " - kernelscope");
}

// 1280x800, or less on a smaller screen: the first window fits the screen's available area (a 1024x700 classroom
// projector, say) with a margin for the window frame.
QSize MainWindow::first_window_size() {
  QSize size(1280, 800);
  if (const QScreen* screen = QGuiApplication::primaryScreen()) {
    const QRect available = screen->availableGeometry();
    size = size.boundedTo(QSize(available.width() * 95 / 100, available.height() * 90 / 100));
  }
  return size;
}

void MainWindow::add_presenter_actions(QMenu* view) {
  view->addSeparator();
  presenter_action_ = view->addAction("P&resenter view (full screen)", QKeySequence(Qt::Key_F11), this,
                                      [this](bool on) { set_presenter_view(on); });
  presenter_action_->setCheckable(true);
  QMenu* text = view->addMenu("&Text size");
  text_size_group_ = new QActionGroup(this);
  for (int size : {13, 16, 20, 24, 28, 32}) {
    QAction* a = text->addAction(QString("%1 points%2").arg(size).arg(size == 13 ? " (default)" : ""), this,
                                 [this, size] { set_text_size(float(size)); });
    a->setCheckable(true);
    a->setData(size);
    a->setChecked(float(size) == viewport_->appearance().font_size);
    text_size_group_->addAction(a);
  }
  contrast_action_ = view->addAction("&High-contrast theme", this, [this](bool on) { set_high_contrast(on); });
  contrast_action_->setCheckable(true);
  contrast_action_->setChecked(viewport_->appearance().high_contrast);
}

void MainWindow::set_presenter_view(bool on) {
  // Full screen for a projector; the text size and theme are the user's own choices (View > Text size, ...).
  if (on) showFullScreen();
  else showNormal();
  presenter_action_->setChecked(on);
}

void MainWindow::set_appearance(const Appearance& a) {
  viewport_->set_appearance(a);  // checks it first: a refused value changes nothing
  settings_.set_appearance(a);
  editor_dock_->editor().set_text_size(a.font_size);
  for (QAction* action : text_size_group_->actions())
    action->setChecked(action->data().toFloat() == a.font_size);
  contrast_action_->setChecked(a.high_contrast);
}

void MainWindow::set_text_size(float points) {
  Appearance a = viewport_->appearance();
  a.font_size = points;
  set_appearance(a);
}

void MainWindow::set_high_contrast(bool on) {
  Appearance a = viewport_->appearance();
  a.high_contrast = on;
  set_appearance(a);
}

QString MainWindow::zoom_status() const { return zoom_label_->text(); }

void MainWindow::set_panels_visible(bool on) {
  const bool was_visible = std::exchange(panels_.visible, on);
  panels_action_->setChecked(on);
  viewport_->panels_toggled(was_visible);
}

void MainWindow::show_error(const QString& title, const QString& text) {
  const QString message = QString::fromStdString(in_window_words(text.toStdString()));
  last_failure_ = title + ": " + message;
  // The status bar says it too, in the window as in scripts: it replaces "Loading ..." and the like, which would
  // otherwise stay after a failure.
  statusBar()->showMessage(last_failure_, 10000);
  if (interactive_) QMessageBox::warning(this, title, message);
}

bool MainWindow::confirm_overwrite(const QStringList& paths) {
  QStringList existing;
  for (const QString& p : paths)
    if (QFileInfo::exists(p)) existing << QFileInfo(p).fileName();
  if (existing.isEmpty()) return true;
  if (!interactive_) {
    questions_ << "Replace files? " + existing.join(", ") + (overwrite_answer_ ? " -> yes" : " -> no");
    return overwrite_answer_;
  }
  // A folder of frames may hold thousands: the first few name the case.
  constexpr int kListed = 12;
  const qsizetype more = existing.size() - kListed;
  if (more > 0) existing = existing.mid(0, kListed) << QString("... and %1 more").arg(more);
  const QString question = "These files exist already and will be replaced:\n" + existing.join("\n");
  return QMessageBox::question(this, "Replace files?", question, QMessageBox::Yes | QMessageBox::Cancel,
                               QMessageBox::Cancel) == QMessageBox::Yes;
}

QString MainWindow::scripted_dialog(const QString& title, const QString& folder) {
  QString path = std::exchange(dialog_answer_, QString());
  if (!path.isEmpty() && QFileInfo(path).isRelative()) path = QDir(folder).filePath(path);
  questions_ << "Dialog " + title + " -> " + (path.isEmpty() ? QString("cancelled") : path);
  return path;
}

QString MainWindow::save_folder() const {
  const QString saved = settings_.last_save_folder();
  if (!saved.isEmpty() && QFileInfo(saved).isDir()) return saved;
  const std::filesystem::path& input = session_.input_path();
  if (!input.empty()) return QFileInfo(q(input.string())).absolutePath();
  return settings_.last_folder();
}

QString MainWindow::save_path(const QString& title, const QString& suggested, const QString& filters,
                              QString* filter) {
  const QString folder = save_folder();
  // The dialog's own overwrite question would miss the sidecar; confirm_overwrite asks about every file.
  QString path = interactive_ ? QFileDialog::getSaveFileName(this, title, folder + "/" + suggested, filters, filter,
                                                             QFileDialog::DontConfirmOverwrite)
                              : scripted_dialog(title, folder);
  if (path.isEmpty()) return path;
  if (filter) path = with_extension(path, *filter);
  settings_.set_last_folder(QFileInfo(path).absolutePath());
  settings_.set_last_save_folder(QFileInfo(path).absolutePath());
  return path;
}

QString MainWindow::folder_path(const QString& title) {
  const QString folder = save_folder();
  const QString path = interactive_ ? QFileDialog::getExistingDirectory(this, title, folder)
                                    : scripted_dialog(title, folder);
  if (path.isEmpty()) return path;
  settings_.set_last_folder(path);
  settings_.set_last_save_folder(path);
  return path;
}

bool MainWindow::serve_save_request(const SaveRequest& r) {
  const QString title = q(r.title);
  QString filter = q(r.filters).section(";;", 0, 0);  // the first filter, whose extension a bare name gets
  const QString path = r.target == SaveRequest::Target::Folder ? folder_path(title)
                                                                : save_path(title, q(r.suggested), q(r.filters), &filter);
  if (path.isEmpty()) return false;
  try {
    QStringList replaced;
    if (r.replaces)
      for (const std::string& f : r.replaces(path.toStdString())) replaced << q(f);
    if (!confirm_overwrite(replaced)) return false;
    statusBar()->showMessage(q(r.write(path.toStdString())), 6000);
    return true;
  } catch (const Error& e) {
    show_error(title, q(e.full_message()));
    return false;
  }
}

// ---- actions ----

void MainWindow::open_file(const QString& path) {
  pending_open_ = path;
  session_.open_image_async(path_of(path));
  statusBar()->showMessage("Loading " + path + "...");
}

bool MainWindow::export_result(const QString& path, int png_bits) {
  if (!session_.has_output()) throw_usage("there is no result to export yet", "run a kernel first");
  const QString sidecar = q(app::sidecar_path_for(path_of(path)).string());
  if (!confirm_overwrite({path, sidecar})) return false;
  SaveOptions options;
  if (png_bits && QFileInfo(path).suffix().compare("png", Qt::CaseInsensitive) == 0) options.png_bit_depth = png_bits;
  // On the session's worker: a large PNG takes seconds, shown in the job box with Cancel; the outcome comes back
  // as a notice (handle_notices).
  session_.export_result_async(path_of(path), options);
  statusBar()->showMessage("Exporting " + path + "...");
  return true;
}

bool MainWindow::save_viewport(const QString& path, bool with_panels) {
  if (!confirm_overwrite({path})) return false;
  save_image(rgb_image_from(viewport_->grab_viewport(with_panels)), path_of(path));
  statusBar()->showMessage("Saved " + path, 6000);
  return true;
}

bool MainWindow::save_window(const QString& path) {
  if (!confirm_overwrite({path})) return false;
  save_image(rgb_image_from(grab().toImage()), path_of(path));
  statusBar()->showMessage("Saved " + path, 6000);
  return true;
}

bool MainWindow::export_timings(const QString& path) {
  if (!confirm_overwrite({path})) return false;
  session_.export_timings(path_of(path));
  statusBar()->showMessage("Exported " + path, 6000);
  return true;
}

void MainWindow::open_dialog() {
  const QString path = QFileDialog::getOpenFileName(this, "Open image", settings_.last_folder(), kImageFilters);
  if (!path.isEmpty()) open_file(path);
}

void MainWindow::export_result_dialog() {
  if (!session_.has_output()) return show_error("Export result", "There is no result yet: run a kernel first.");
  QString filter = kPng8;
  const QString suggested = q(fmt::format("{}-{}.png", session_.kernel().id, session_.effective_variant()));
  const QString path = save_path("Export result image", suggested, kResultFilters, &filter);
  if (path.isEmpty()) return;
  try {
    export_result(path, filter == kPng16 ? 16 : filter == kPng8 ? 8 : 0);
  } catch (const Error& e) {
    show_error("Export result", q(e.full_message()));
  }
}

void MainWindow::screenshot_dialog(bool with_panels) {
  QString filter;
  const QString path = save_path(with_panels ? "Save screenshot" : "Save screenshot without panels",
                                 "kernelscope.png", kShotFilters, &filter);
  if (path.isEmpty()) return;
  try {
    save_viewport(path, with_panels);
  } catch (const Error& e) {
    show_error("Save screenshot", q(e.full_message()));
  }
}

void MainWindow::export_timings_dialog() {
  QString filter;
  const QString path = save_path("Export timings", "timings.csv", kTimingFilters, &filter);
  if (path.isEmpty()) return;
  try {
    export_timings(path);
  } catch (const Error& e) {
    show_error("Export timings", q(e.full_message()));
  }
}

void MainWindow::about() { QMessageBox::about(this, "About kernelscope", about_text()); }

QString MainWindow::about_text() const {
  const app::DeviceStatus& d = session_.device();
  std::string gpu = d.cuda ? fmt::format("{} (compute {}.{}, {} SMs)<br>driver {}, CUDA runtime {}", d.info.name,
                                         d.info.cc_major, d.info.cc_minor, d.info.sm_count,
                                         cuda_version_text(d.info.driver_version),
                                         cuda_version_text(d.info.runtime_version))
                           : "none usable: " + d.unavailable_reason;
#ifdef KS_HAVE_CUDA
  const char* build = "with the CUDA backend";
#else
  const char* build = "CPU backend only (built without CUDA)";
#endif
  const std::string text = fmt::format(
      "<h3>kernelscope {}</h3><p>Explore GPU kernels: pick a kernel, its parameters and its CUDA block, and read "
      "each launch's time against what the GPU can do.</p>"
      "<p><b>Build:</b> {}<br><b>GPU:</b> {}<br><b>CPU backend:</b> {}</p>"
      "<p><b>OpenGL:</b> {}<br>{}<br><b>Display path:</b> {}</p><p>Qt {}, Dear ImGui {}</p>",
      KS_VERSION, build, gpu, d.cpu, viewport_->gl_renderer(), viewport_->gl_version(), viewport_->display_path(),
      qVersion(), IMGUI_VERSION);
  return q(text);
}

// ---- window events ----

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!editor_dock_->confirm_close()) {  // "save changes to the kernel?" answered Cancel
    event->ignore();
    return;
  }
  close_playlist();  // the panels as the user left them, not as the show did
  settings_.set_geometry(saveGeometry());
  settings_.save_panels(panels_);
  // All work stops together now; the destructors then only join workers that are winding down.
  session_.shut_down();
  event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls())
    for (const QUrl& u : event->mimeData()->urls())
      if (u.isLocalFile()) return event->acceptProposedAction();
}

SimulationMenuContext MainWindow::simulation_menu_context() {
  return {session_, this, [this](const QString& t, const QString& m) { show_error(t, m); },
          [this] { return settings_.last_folder(); }, [this](const QString& m) { statusBar()->showMessage(m, 6000); },
          [this](const SaveRequest& r) { return serve_save_request(r); }};
}

void MainWindow::dropEvent(QDropEvent* event) {
  for (const QUrl& u : event->mimeData()->urls())
    if (u.isLocalFile()) {
      if (app::is_life_pattern_file(path_of(u.toLocalFile()))) {  // .rle: life starts from the pattern
        open_pattern_file(simulation_menu_context(), u.toLocalFile());
        event->acceptProposedAction();
        return;
      }
      if (KernelEditorDock::is_kernel_path(u.toLocalFile())) {  // .cu: the kernel editor's
        edit_kernel(u.toLocalFile());
        event->acceptProposedAction();
        return;
      }
      if (is_traffic_path(u.toLocalFile())) {  // .txt, .xml, .csv, .dat or a folder: the Topology panel's
        open_traffic(u.toLocalFile());
        event->acceptProposedAction();
        return;
      }
      open_file(u.toLocalFile());  // one image at a time: the first file dropped
      event->acceptProposedAction();
      return;
    }
}

}  // namespace ks::ui::qt
