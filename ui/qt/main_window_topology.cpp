// The main window's Topology entries: File > Open traffic dataset / folder, File > Export topology results
// (CSV, JSON, or a PNG of the viewport with the Topology panel), View > Topology, and traffic files dropped
// on the window. The work is the session's TopologyDocument's; the panel (ui/panels/topology/topology_panel.cpp) shows
// it.
#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QMenu>
#include <QStatusBar>
#include <filesystem>

#include "core/error.hpp"
#include "qt/main_window.hpp"
#include "qt/viewport_widget.hpp"
#include "session/session.hpp"
#include "session/topology/topology_document.hpp"

namespace ks::ui::qt {

namespace {

const char* kTrafficFilters =
    "Traffic (*.txt *.xml *.csv *.dat);;SNDlib native (*.txt);;SNDlib XML (*.xml);;CSV (*.csv);;QAPLIB "
    "(*.dat);;"
    "All files (*)";
const char* kTopologyExportFilters = "CSV (*.csv);;JSON (*.json);;PNG of the panel (*.png)";

}  // namespace

bool MainWindow::is_traffic_path(const QString& path) {
  const QFileInfo info(path);
  if (info.isDir()) return true;  // a folder of SNDlib XML matrices or dense CSVs
  const QString ext = info.suffix().toLower();
  return ext == "txt" || ext == "xml" || ext == "csv" || ext == "dat";
}

void MainWindow::add_topology_file_actions(QMenu* file) {
  file->addSeparator();
  file->addAction("Open &traffic dataset...", this, [this] {
    const QString path =
        QFileDialog::getOpenFileName(this, "Open traffic dataset", settings_.last_folder(), kTrafficFilters);
    if (!path.isEmpty()) open_traffic(path);
  });
  file->addAction("Open traffic &folder...", this, [this] {
    const QString path = QFileDialog::getExistingDirectory(
        this, "Open a folder of SNDlib XML or dense CSV matrices", settings_.last_folder());
    if (!path.isEmpty()) open_traffic(path);
  });
  file->addAction("Export t&opology results...", this, [this] {
    QString filter;
    const QString path =
        save_path("Export topology results", "topology.json", kTopologyExportFilters, &filter);
    if (path.isEmpty()) return;
    try {
      export_topology(path);
    } catch (const Error& e) {
      show_error("Export topology results", QString::fromStdString(e.full_message()));
    }
  });
}

void MainWindow::add_topology_view_action(QMenu* view) {
  QAction* action = view->addAction("&Topology panel", QKeySequence(Qt::Key_T), this, [this](bool on) {
    panels_.topology.open = on;
    viewport_->update();
  });
  action->setCheckable(true);
  action->setChecked(panels_.topology.open);
  // The panel's own close button clears the flag: keep the check mark in step.
  connect(view, &QMenu::aboutToShow, this, [this, action] { action->setChecked(panels_.topology.open); });
}

void MainWindow::open_traffic(const QString& path) {
  panels_.topology.open = true;
  panels_.topology.sample_opened = true;  // the file replaces the sample
  session_.topology().open_traffic_async(std::filesystem::path(path.toStdString()));
  settings_.set_last_folder(QFileInfo(path).absolutePath());
  traffic_loading_message_ = "Loading traffic " + path + "... (the Topology panel shows when it is done)";
  statusBar()->showMessage(traffic_loading_message_);  // until the load ends (refresh_topology)
  viewport_->update();
}

bool MainWindow::export_topology(const QString& path) {
  const QString ext = QFileInfo(path).suffix().toLower();
  if (ext != "csv" && ext != "json" && ext != "png")
    throw_usage("cannot export topology results to '" + path.toStdString() + "'",
                "name it .csv, .json or .png");
  if (ext == "png") {
    panels_.topology.open = true;  // a picture of the panel, through the viewport's own screenshot
    return save_viewport(path, true);
  }
  app::TopologyDocument& doc = session_.topology();
  if (!doc.run_result()) throw_usage("there is no topology result to export yet", "run a sweep first");
  if (!confirm_overwrite({path})) return false;
  const std::filesystem::path p(path.toStdString());
  if (ext == "csv")
    doc.export_csv(p);
  else
    doc.export_json(p);
  statusBar()->showMessage("Exported " + path, 6000);
  return true;
}

bool MainWindow::refresh_topology() {
  app::TopologyDocument& doc = session_.topology();
  if (!traffic_loading_message_.isEmpty() && !doc.busy()) {  // the load ended: the panel says how
    if (statusBar()->currentMessage() == traffic_loading_message_) statusBar()->clearMessage();
    traffic_loading_message_.clear();
  }
  if (!panels_.topology.open) return false;
  // Progress while it sweeps, and one more frame to show what arrived.
  const bool needed = doc.busy() || doc.poll();
  if (needed) viewport_->update();
  return needed;
}

}  // namespace ks::ui::qt
