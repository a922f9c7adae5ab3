#pragma once
// The kernel editor in the main window: a dock left of the viewport (the sidebar stays visible; it can be
// floated as a window of its own and resized), with the editor's file handling: File > New kernel (the
// templates of assets/kernels), Open kernel..., Open recent kernel, Save kernel, Save kernel as... (written
// atomically), a "save changes?" question before the text is replaced or the app closes, bad files refused with
// the text kept; and Kernel > Edit kernel..., Undo, Redo, Find. Dialogs and error messages go through the
// window (EditorDockContext), which answers them itself in scripted runs.
#include <QDockWidget>
#include <QString>
#include <functional>

#include "assets.hpp"

class QMenu;

namespace ks::ui::qt {

class AppSettings;
class KernelEditor;

struct EditorDockContext {
  AppSettings& settings;
  std::function<void(const QString& title, const QString& message)> show_error;
  // The path chosen in a save dialog (empty: cancelled), and in an open dialog.
  std::function<QString(const QString& title, const QString& suggested)> save_path;
  std::function<QString(const QString& title)> open_path;
  // "Save changes to NAME?": Save, Discard or Cancel.
  enum class Answer { Save, Discard, Cancel };
  std::function<Answer(const QString& question)> ask;
  std::function<void(const QString& message)> status;  // a passing note in the status bar
};

class KernelEditorDock : public QDockWidget {
 public:
  KernelEditorDock(EditorDockContext context, QWidget* parent);

  KernelEditor& editor() noexcept { return *editor_; }
  // The editor's entries in the window's File and Kernel menus.
  void add_menu_entries(QMenu* file, QMenu* kernel);

  // Kernel > Edit kernel...: shows the dock with the keyboard in the text; the first time, on smooth3x3.cu.
  void show_editor();
  // Each asks to save changes first (false: cancelled) and shows what went wrong (false); a file that cannot
  // be used (empty, binary, over 1 MiB, unreadable) leaves the text as it was.
  bool new_kernel(const embedded::KernelTemplate& t);
  // An untitled text named `name` (the Source panel's Edit a copy): shown, raised and given the keyboard.
  bool open_untitled(const QString& text, const QString& name);
  bool open_kernel(const QString& path);
  bool save();  // to its file, or as a new one
  bool save_as();
  bool save_to(const QString& path);
  // Before the window closes: false when the user cancels (there are changes and they chose neither).
  bool confirm_close();

  static bool is_kernel_path(const QString& path);  // .cu or .cuh

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  bool confirm_discard();
  void rebuild_recent_menu();
  void update_title();

  EditorDockContext context_;
  KernelEditor* editor_;
  QMenu* recent_menu_ = nullptr;
  bool has_document_ = false;
  bool sized_ = false;  // given its first width
};

}  // namespace ks::ui::qt
