// The kernel editor's place in the main window (qt/editor/kernel_editor_dock.hpp): a dock left of the viewport,
// its File and Kernel menu entries, its dialogs through the window's (answered by scripts in scripted runs), and
// the GPU its occupancy and architecture are for.
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>

#include "core/device_models.hpp"
#include "core/error.hpp"
#include "qt/editor/kernel_editor.hpp"
#include "qt/editor/kernel_editor_dock.hpp"
#include "qt/main_window.hpp"
#include "qt/viewport_widget.hpp"
#include "usercode/run/user_params.hpp"
#include "session/session.hpp"

namespace ks::ui::qt {

namespace {

using Answer = EditorDockContext::Answer;

const char* kKernelFilters = "CUDA kernels (*.cu *.cuh);;All files (*)";

// The values of `kernel`'s declared parameters: its defaults, except where the running kernel it replaces
// (`before`) had a parameter of the same name and type whose value is inside the new range.
template <class Choice>
std::vector<double> carried_params(const usercode::CompiledKernel& kernel, const std::optional<Choice>& before) {
  return usercode::carried_param_values(kernel.declarations, before ? &before->kernel->declarations : nullptr,
                                        before ? before->params : std::vector<double>{});
}

}  // namespace

void MainWindow::add_kernel_editor(QMenu* file, QMenu* kernel) {
  EditorDockContext context{
      settings_,
      [this](const QString& title, const QString& message) { show_error(title, message); },
      [this](const QString& title, const QString& suggested) {
        QString filter = "CUDA kernel (*.cu)";
        return save_path(title, suggested, kKernelFilters, &filter);
      },
      [this](const QString& title) {
        if (!interactive_) return scripted_dialog(title, settings_.last_folder());
        return QFileDialog::getOpenFileName(this, title, settings_.last_folder(), kKernelFilters);
      },
      [this](const QString& question) {
        if (!interactive_) {
          const auto answer = static_cast<Answer>(save_changes_answer_);
          questions_ << question + " -> " +
                            (answer == Answer::Save ? "save" : answer == Answer::Discard ? "discard" : "cancel");
          return answer;
        }
        const auto button = QMessageBox::question(this, "Save changes?", question,
                                                  QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                                                  QMessageBox::Save);
        return button == QMessageBox::Save ? Answer::Save : button == QMessageBox::Discard ? Answer::Discard
                                                                                           : Answer::Cancel;
      },
      [this](const QString& message) { statusBar()->showMessage(message, 6000); }};
  editor_dock_ = new KernelEditorDock(std::move(context), this);
  addDockWidget(Qt::LeftDockWidgetArea, editor_dock_);
  editor_dock_->hide();
  editor_dock_->add_menu_entries(file, kernel);

  KernelEditor& editor = editor_dock_->editor();
  connect(&editor, &KernelEditor::runRequested, this,
          [this](std::shared_ptr<const usercode::CompiledKernel> k, QString, QString name) { run_user_kernel(k, name); });
  // Live: while the kernel of this file runs, each compile that succeeds runs at once.
  connect(&editor, &KernelEditor::outcome_shown, this, [this] {
    KernelEditor& ed = editor_dock_->editor();
    if (!ed.shown_outcome() || !ed.shown_outcome()->runnable()) return;
    auto runs_an_older_compile = [&](const auto& running) {
      return running && running->file_name == ed.display_name().toStdString() &&
             running->kernel != ed.shown_outcome()->kernel;
    };
    if (runs_an_older_compile(session_.stencil().user_kernel()) || runs_an_older_compile(session_.user_array_kernel()))
      run_user_kernel(ed.shown_outcome()->kernel, ed.display_name());
  });
  follow_user_step_edits();
  editor_dock_->editor().set_text_size(viewport_->appearance().font_size);
  const app::DeviceStatus& d = session_.device();
  if (d.cuda)
    editor_dock_->editor().set_device({d.info, false}, "sm_" + std::to_string(d.info.cc_major) +
                                                           std::to_string(d.info.cc_minor));
  else
    editor_dock_->editor().set_device({device_model("h100").limits, true}, "sm_90");
}

void MainWindow::run_user_kernel(std::shared_ptr<const usercode::CompiledKernel> kernel, const QString& file_name) {
  if (kernel->family && *kernel->family == usercode::Family::Array) return run_user_array_kernel(kernel, file_name);
  if (kernel->family && *kernel->family == usercode::Family::Step) return run_user_step_kernel(kernel, file_name);
  if (!kernel->family || *kernel->family != usercode::Family::Stencil) {
    show_error("Run your kernel", "A kernel without `// @family stencil`, `array` or `step` has no place to run in "
                                  "the app: declare its family (README, \"Your own kernel\")");
    return;
  }
  const auto& before = session_.stencil().user_kernel();
  app::UserStencilChoice choice{kernel, file_name.toStdString(), carried_params(*kernel, before)};
  try {
    session_.use_user_kernel(std::move(choice));
  } catch (const Error& e) {
    show_error("Run your kernel", QString::fromStdString(e.full_message()));
  }
}

void MainWindow::run_user_array_kernel(std::shared_ptr<const usercode::CompiledKernel> kernel,
                                       const QString& file_name) {
  const auto& before = session_.user_array_kernel();
  app::UserArrayChoice choice{kernel, file_name.toStdString(), carried_params(*kernel, before)};
  try {
    session_.use_user_array_kernel(std::move(choice));
  } catch (const Error& e) {
    show_error("Run your kernel", QString::fromStdString(e.full_message()));
  }
}

bool MainWindow::edit_kernel(const QString& path) {
  const bool opened = editor_dock_->open_kernel(path);
  if (opened) editor_dock_->show_editor();
  return opened;
}

bool MainWindow::kernel_editor_busy() const { return editor_dock_->editor().compiling(); }

void MainWindow::set_save_changes_answer(const QString& answer) {
  if (answer == "save") save_changes_answer_ = static_cast<int>(Answer::Save);
  else if (answer == "discard") save_changes_answer_ = static_cast<int>(Answer::Discard);
  else if (answer == "cancel") save_changes_answer_ = static_cast<int>(Answer::Cancel);
  else throw_usage("the answer to \"save changes?\" is save, discard or cancel, not '" + answer.toStdString() + "'");
}

}  // namespace ks::ui::qt
