#pragma once
// What the app remembers between runs, through QSettings: window geometry, the last folder of a file dialog,
// recent files, and the panels' state (which sections are open, the sidebar's width, whether it shows).
#include <QByteArray>
#include <QSettings>
#include <QString>
#include <QStringList>

#include "imgui/imgui_layer.hpp"
#include "panels/panels.hpp"

namespace ks::ui::qt {

class AppSettings {
 public:
  static constexpr int kRecentLimit = 10;

  // `settings` is the app's store (QSettings in the user's config folder; tests give one on a temp file).
  explicit AppSettings(QSettings& settings) : settings_(settings) {}

  QByteArray geometry() const;
  void set_geometry(const QByteArray& g);
  QByteArray window_state() const;
  void set_window_state(const QByteArray& s);

  QString last_folder() const;  // the user's home folder until a dialog was used
  void set_last_folder(const QString& folder);
  // Where the last export (result, screenshot, timings, frames, ...) was saved: empty until one was. Opening
  // files does not change it, so a save dialog does not follow the folder of a traffic file.
  QString last_save_folder() const;
  void set_last_save_folder(const QString& folder);

  QStringList recent_files() const;  // newest first, at most kRecentLimit
  void add_recent_file(const QString& path);  // moves it to the front
  void remove_recent_file(const QString& path);
  void clear_recent_files();
  // The kernel sources (.cu) opened or saved in the kernel editor, kept apart from the images.
  QStringList recent_kernels() const;  // newest first, at most kRecentLimit
  void add_recent_kernel(const QString& path);
  void remove_recent_kernel(const QString& path);
  void clear_recent_kernels();

  void load_panels(PanelState& state) const;
  void save_panels(const PanelState& state);

  // Text size and theme of the panels (a value out of range in the file gives the default).
  Appearance appearance() const;
  void set_appearance(const Appearance& a);

 private:
  QStringList recent_list(const char* key) const;
  void add_to_recent_list(const char* key, const QString& path);
  void remove_from_recent_list(const char* key, const QString& path);

  QSettings& settings_;
};

}  // namespace ks::ui::qt
