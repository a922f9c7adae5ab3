// The session's side of a user's own `step` kernel (issue 24): which simulation it steps, and the way back. The
// simulation runner does the work (simulation_runner_user.cpp, user_step_backend.cpp).
#include <fmt/format.h>

#include "core/error.hpp"
#include "inputs/step_reference.hpp"
#include "session/session.hpp"
#include "usercode/run/user_step.hpp"

namespace ks::app {

void Session::use_user_step_kernel(std::optional<UserStepChoice> choice) {
  if (!choice) {
    simulation_->set_user_step(nullptr);
    request_run();
    return;
  }
  if (!choice->kernel || !choice->kernel->ok())
    throw_usage("your kernel does not compile", "fix the errors the editor marks, then run it");
  const ElemType type = usercode::step_element(*choice->kernel);  // a usage Error for another family
  const std::string fits = inputs::simulation_for_step(type);
  if (stencil_->user_kernel()) stencil_->set_user_kernel(std::nullopt);
  if (choice_.kernel->id != fits) {
    const std::string before = choice_.kernel->id;
    select_kernel(fits);
    notify(Notice::Level::Info, Notice::Source::Run,
           before == "grayscott"
               ? fmt::format("your kernel keeps one {} value per cell and Gray-Scott keeps two (u and v), so it "
                             "steps {} instead",
                             to_string(type), fits)
               : fmt::format("your kernel keeps {} cells, so it steps the {} simulation", to_string(type), fits));
  }
  simulation_->set_user_step(std::make_shared<const UserStepChoice>(std::move(*choice)));
  request_run();
  refresh_launch_info();
}

}  // namespace ks::app
