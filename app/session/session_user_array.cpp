// The session's side of a user's own `array` kernel: which lab kernel it runs in (the chosen one where it fits,
// else the first that does), the CUDA backend where there is one (the kernel runs in the GPU worker whatever the
// backend), and one user kernel at a time (a user stencil kernel stops). The Lab document does the work
// (lab_document_user.cpp).
#include <fmt/format.h>

#include "inputs/lab_user_inputs.hpp"
#include "registry/registry.hpp"
#include "session/lab/lab_document.hpp"
#include "session/session.hpp"

namespace ks::app {

void Session::use_user_array_kernel(std::optional<UserArrayChoice> choice) {
  if (!choice) {
    lab_->set_user_kernel(std::nullopt);
    return;
  }
  if (!choice->kernel || !choice->kernel->ok())
    throw_usage("your kernel does not compile", "fix the errors the editor marks, then run it");
  const usercode::ArrayForm form = usercode::array_form(*choice->kernel);  // a usage Error for another family
  // Throws, before anything changes, when no lab kernel takes what this kernel takes.
  const KernelSpec& target =
      inputs::lab_kernel_for(form, in_lab() ? choice_.kernel : nullptr, in_lab() ? &choice_.params : nullptr);
  if (stencil_->user_kernel()) stencil_->set_user_kernel(std::nullopt);
  if (&target != choice_.kernel) {
    const std::string before = choice_.kernel->id;
    const bool was_lab = in_lab();
    select_kernel(target.id);
    notify(Notice::Level::Info, Notice::Source::Run,
           was_lab ? fmt::format("your kernel ({}) does not fit {}: it runs on {}'s inputs", 
                                 inputs::describe_array_form(form), before, target.id)
                   : fmt::format("your kernel ({}) runs in the Lab, on {}'s inputs", inputs::describe_array_form(form),
                                 target.id));
  }
  if (device_.cuda && choice_.backend != Backend::Cuda) set_backend(Backend::Cuda);  // the block applies there
  lab_->set_user_kernel(std::move(choice));
}

const std::optional<UserArrayChoice>& Session::user_array_kernel() const noexcept { return lab_->user_kernel(); }

void Session::keep_user_array_kernel_if_it_fits() {
  const auto& user = lab_->user_kernel();
  if (!user) return;
  std::string why = choice_.kernel->id + " is not a lab kernel";
  if (in_lab()) {
    const inputs::LabFit fit =
        inputs::fit_lab_kernel(*choice_.kernel, choice_.params, usercode::array_form(*user->kernel));
    if (fit.mapping) return;
    why = fit.why_not;
  }
  const std::string file = user->file_name;
  lab_->set_user_kernel(std::nullopt);
  notify(Notice::Level::Info, Notice::Source::Run,
         fmt::format("{} stopped: {}; the built-in kernel runs again", file, why));
}

}  // namespace ks::app
