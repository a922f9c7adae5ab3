#include "qt/app_settings.hpp"

#include <QDir>

namespace ks::ui::qt {

QByteArray AppSettings::geometry() const { return settings_.value("window/geometry").toByteArray(); }
void AppSettings::set_geometry(const QByteArray& g) { settings_.setValue("window/geometry", g); }
QByteArray AppSettings::window_state() const { return settings_.value("window/state").toByteArray(); }
void AppSettings::set_window_state(const QByteArray& s) { settings_.setValue("window/state", s); }

QString AppSettings::last_folder() const { return settings_.value("files/last_folder", QDir::homePath()).toString(); }
void AppSettings::set_last_folder(const QString& folder) { settings_.setValue("files/last_folder", folder); }
QString AppSettings::last_save_folder() const { return settings_.value("files/last_save_folder").toString(); }
void AppSettings::set_last_save_folder(const QString& folder) { settings_.setValue("files/last_save_folder", folder); }

QStringList AppSettings::recent_list(const char* key) const {
  QStringList list = settings_.value(key).toStringList();
  while (list.size() > kRecentLimit) list.removeLast();
  return list;
}

void AppSettings::add_to_recent_list(const char* key, const QString& path) {
  QStringList list = recent_list(key);
  list.removeAll(path);
  list.prepend(path);
  while (list.size() > kRecentLimit) list.removeLast();
  settings_.setValue(key, list);
}

void AppSettings::remove_from_recent_list(const char* key, const QString& path) {
  QStringList list = recent_list(key);
  list.removeAll(path);
  settings_.setValue(key, list);
}

QStringList AppSettings::recent_files() const { return recent_list("files/recent"); }
void AppSettings::add_recent_file(const QString& path) { add_to_recent_list("files/recent", path); }
void AppSettings::remove_recent_file(const QString& path) { remove_from_recent_list("files/recent", path); }
void AppSettings::clear_recent_files() { settings_.remove("files/recent"); }

QStringList AppSettings::recent_kernels() const { return recent_list("files/recent_kernels"); }
void AppSettings::add_recent_kernel(const QString& path) { add_to_recent_list("files/recent_kernels", path); }
void AppSettings::remove_recent_kernel(const QString& path) { remove_from_recent_list("files/recent_kernels", path); }
void AppSettings::clear_recent_kernels() { settings_.remove("files/recent_kernels"); }

void AppSettings::load_panels(PanelState& s) const {
  s.visible = settings_.value("panels/visible", s.visible).toBool();
  s.sidebar_width = settings_.value("panels/width", double(s.sidebar_width)).toFloat();
  s.kernel_open = settings_.value("panels/kernel_open", s.kernel_open).toBool();
  s.launch_open = settings_.value("panels/launch_open", s.launch_open).toBool();
  s.timing_open = settings_.value("panels/timing_open", s.timing_open).toBool();
  s.device_open = settings_.value("panels/device_open", s.device_open).toBool();
  s.view_open = settings_.value("panels/view_open", s.view_open).toBool();
  s.source_open = settings_.value("panels/source_open", s.source_open).toBool();
  s.why_open = settings_.value("panels/why_open", s.why_open).toBool();
  s.auto_range = settings_.value("panels/auto_range", s.auto_range).toBool();
}

void AppSettings::save_panels(const PanelState& s) {
  settings_.setValue("panels/visible", s.visible);
  settings_.setValue("panels/width", double(s.sidebar_width));
  settings_.setValue("panels/kernel_open", s.kernel_open);
  settings_.setValue("panels/launch_open", s.launch_open);
  settings_.setValue("panels/timing_open", s.timing_open);
  settings_.setValue("panels/device_open", s.device_open);
  settings_.setValue("panels/view_open", s.view_open);
  settings_.setValue("panels/source_open", s.source_open);
  settings_.setValue("panels/why_open", s.why_open);
  settings_.setValue("panels/auto_range", s.auto_range);
}

Appearance AppSettings::appearance() const {
  Appearance a;
  const float size = settings_.value("view/font_size", a.font_size).toFloat();
  if (size >= Appearance::kMinFontSize && size <= Appearance::kMaxFontSize) a.font_size = size;
  a.high_contrast = settings_.value("view/high_contrast", a.high_contrast).toBool();
  return a;
}

void AppSettings::set_appearance(const Appearance& a) {
  settings_.setValue("view/font_size", a.font_size);
  settings_.setValue("view/high_contrast", a.high_contrast);
}

}  // namespace ks::ui::qt
