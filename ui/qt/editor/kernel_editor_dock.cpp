#include "qt/editor/kernel_editor_dock.hpp"

#include <QAction>
#include <QFileInfo>
#include <QKeySequence>
#include <QMainWindow>
#include <QMenu>
#include <algorithm>
#include <filesystem>
#include <string>

#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "qt/app_settings.hpp"
#include "qt/editor/code_editor.hpp"
#include "qt/editor/find_bar.hpp"
#include "qt/editor/kernel_editor.hpp"
#include "usercode/source_text.hpp"

namespace ks::ui::qt {

namespace {

// The editor's share of the window's width when it first shows: room for 80 columns of code where there is
// space, and the viewport with its sidebar beside it at 1024 pixels.
constexpr double kEditorShare = 0.45;
constexpr int kEditorMaxWidth = 720;

QString q(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
std::filesystem::path path_of(const QString& s) { return std::filesystem::path(s.toStdString()); }

}  // namespace

KernelEditorDock::KernelEditorDock(EditorDockContext context, QWidget* parent)
    : QDockWidget("Kernel editor", parent), context_(std::move(context)), editor_(new KernelEditor(this)) {
  setObjectName("kernel_editor");  // saveState() needs a name
  setAllowedAreas(Qt::LeftDockWidgetArea | Qt::RightDockWidgetArea | Qt::BottomDockWidgetArea);
  setWidget(editor_);
  connect(editor_, &KernelEditor::title_changed, this, [this] { update_title(); });
  connect(editor_, &KernelEditor::save_shortcut, this, [this] { save(); });
  hide();
}

bool KernelEditorDock::is_kernel_path(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  return suffix == "cu" || suffix == "cuh";
}

void KernelEditorDock::add_menu_entries(QMenu* file, QMenu* kernel) {
  QMenu* templates = file->addMenu("&New kernel");
  for (const embedded::KernelTemplate& t : embedded::kernel_templates())
    templates->addAction(q(t.title) + " - " + q(t.file_name), this, [this, t] { new_kernel(t); });
  file->addAction("Open &kernel...", this, [this] {
    const QString path = context_.open_path("Open kernel");
    if (!path.isEmpty()) open_kernel(path);
  });
  recent_menu_ = file->addMenu("Open recent k&ernel");
  connect(recent_menu_, &QMenu::aboutToShow, this, &KernelEditorDock::rebuild_recent_menu);
  // Ctrl+S saves the kernel while the editor's text has the keyboard (CodeEditor): the window's Ctrl+S stays
  // Export result image everywhere else.
  file->addAction("Save ker&nel", this, [this] { save(); });
  file->addAction("Save kernel &as...", this, [this] { save_as(); });

  kernel->addAction("&Edit kernel...", this, [this] { show_editor(); });
  kernel->addSeparator();
  // Window shortcuts, so they act only while the editor shows: Ctrl+Z on the image must not undo a hidden text.
  QList<QAction*> while_shown = {
      kernel->addAction("&Undo", QKeySequence::Undo, this, [this] { editor_->code().undo(); }),
      kernel->addAction("&Redo", QKeySequence::Redo, this, [this] { editor_->code().redo(); })};
  kernel->addAction("&Find...", QKeySequence::Find, this, [this] {
    show_editor();
    editor_->find_bar().open();
  });
  while_shown << kernel->addAction("Find &next", QKeySequence::FindNext, this,
                                   [this] { editor_->find_bar().find_next(); })
              << kernel->addAction("Find &previous", QKeySequence::FindPrevious, this,
                                   [this] { editor_->find_bar().find_previous(); });
  for (QAction* a : while_shown) a->setEnabled(false);
  connect(this, &QDockWidget::visibilityChanged, this, [while_shown](bool visible) {
    for (QAction* a : while_shown) a->setEnabled(visible);
  });
}

void KernelEditorDock::show_editor() {
  if (!has_document_) new_kernel(embedded::kernel_templates().front());  // smooth3x3.cu
  show();
  raise();
  editor_->code().setFocus(Qt::OtherFocusReason);
}

bool KernelEditorDock::new_kernel(const embedded::KernelTemplate& t) {
  if (!confirm_discard()) return false;
  editor_->set_untitled(q(t.text), q(t.file_name));
  has_document_ = true;
  show();
  return true;
}

bool KernelEditorDock::open_untitled(const QString& text, const QString& name) {
  if (!confirm_discard()) return false;
  editor_->set_untitled(text, name);
  has_document_ = true;
  show_editor();
  return true;
}

bool KernelEditorDock::open_kernel(const QString& path) {
  if (!confirm_discard()) return false;
  std::string text;
  try {
    text = usercode::read_kernel_source(path_of(path));
  } catch (const Error& e) {  // the text shown stays
    context_.settings.remove_recent_kernel(path);
    context_.show_error("Open kernel", q(e.full_message()));
    return false;
  }
  editor_->set_file(q(text), path);
  has_document_ = true;
  context_.settings.add_recent_kernel(path);
  context_.settings.set_last_folder(QFileInfo(path).absolutePath());
  show();
  raise();
  return true;
}

bool KernelEditorDock::save() {
  if (!has_document_) {
    context_.status("No kernel to save: Kernel > Edit kernel... or File > New kernel first");
    return false;
  }
  if (editor_->file_path().isEmpty()) return save_as();
  return save_to(editor_->file_path());
}

bool KernelEditorDock::save_as() {
  const QString path = context_.save_path("Save kernel", editor_->display_name());
  if (path.isEmpty()) return false;
  return save_to(path);
}

bool KernelEditorDock::save_to(const QString& path) {
  try {
    write_text_atomically(path_of(path), editor_->text().toStdString());
  } catch (const Error& e) {
    context_.show_error("Save kernel", q(e.full_message()));
    return false;
  }
  editor_->mark_saved(path);
  context_.settings.add_recent_kernel(path);
  context_.status("Saved " + path);
  return true;
}

bool KernelEditorDock::confirm_close() { return confirm_discard(); }

bool KernelEditorDock::confirm_discard() {
  if (!has_document_ || !editor_->modified()) return true;
  switch (context_.ask("Save changes to " + editor_->display_name() + "?")) {
    case EditorDockContext::Answer::Save:
      return save();
    case EditorDockContext::Answer::Discard:
      return true;
    case EditorDockContext::Answer::Cancel:
      break;
  }
  return false;
}

void KernelEditorDock::rebuild_recent_menu() {
  recent_menu_->clear();
  const QStringList files = context_.settings.recent_kernels();
  for (const QString& f : files) recent_menu_->addAction(f, this, [this, f] { open_kernel(f); });
  if (files.isEmpty()) recent_menu_->addAction("(none)")->setEnabled(false);
  recent_menu_->addSeparator();
  recent_menu_->addAction("Clear the list", this, [this] { context_.settings.clear_recent_kernels(); })
      ->setEnabled(!files.isEmpty());
}

void KernelEditorDock::showEvent(QShowEvent* event) {
  QDockWidget::showEvent(event);
  auto* window = qobject_cast<QMainWindow*>(parentWidget());
  if (sized_ || isFloating() || !window) return;
  sized_ = true;
  const int width = std::min(kEditorMaxWidth, static_cast<int>(window->width() * kEditorShare));
  window->resizeDocks({this}, {width}, Qt::Horizontal);
}

void KernelEditorDock::update_title() { setWindowTitle("Kernel editor: " + editor_->title()); }

}  // namespace ks::ui::qt
