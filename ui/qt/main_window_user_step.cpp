// The kernel editor's Run for a `step` kernel (issue 24): it steps the live simulation instead of the built-in
// variant (app/session/session_user_step.cpp), keeping the values of the parameters it shares with the step
// kernel it replaces; while it runs, each compile of its file that succeeds replaces it.
#include "core/error.hpp"
#include "qt/editor/kernel_editor.hpp"
#include "qt/editor/kernel_editor_dock.hpp"
#include "qt/main_window.hpp"
#include "session/session.hpp"
#include "usercode/run/user_params.hpp"

namespace ks::ui::qt {

void MainWindow::run_user_step_kernel(std::shared_ptr<const usercode::CompiledKernel> kernel,
                                      const QString& file_name) {
  const auto& before = session_.simulating() ? session_.simulation().user_step() : nullptr;
  app::UserStepChoice choice{kernel, file_name.toStdString(),
                             usercode::carried_param_values(kernel->declarations,
                                                            before ? &before->kernel->declarations : nullptr,
                                                            before ? before->params : std::vector<double>{})};
  try {
    session_.use_user_step_kernel(std::move(choice));
  } catch (const Error& e) {
    show_error("Run your kernel", QString::fromStdString(e.full_message()));
  }
}

void MainWindow::follow_user_step_edits() {
  KernelEditor& editor = editor_dock_->editor();
  connect(&editor, &KernelEditor::outcome_shown, this, [this] {
    KernelEditor& ed = editor_dock_->editor();
    if (!session_.simulating()) return;
    const auto& running = session_.simulation().user_step();
    if (!running || !ed.shown_outcome() || !ed.shown_outcome()->runnable()) return;
    if (running->file_name != ed.display_name().toStdString() || running->kernel == ed.shown_outcome()->kernel) return;
    const auto& kernel = ed.shown_outcome()->kernel;
    if (!kernel->family || *kernel->family != usercode::Family::Step) return;  // now of another family: Run decides
    run_user_step_kernel(kernel, ed.display_name());
  });
}

}  // namespace ks::ui::qt
