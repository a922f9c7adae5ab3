// The live simulation stepping with a user's own `step` kernel (issue 24): choosing it and its parameters, the
// check against the built-in simulation on the CPU, and the difference shown in place of the state. The stepping
// itself is the runner's as for any variant; the kernel runs through UserStepBackend (user_step_backend.hpp).
#include <fmt/format.h>

#include <cmath>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "report/diff_heatmap.hpp"
#include "session/simulation/simulation_runner.hpp"
#include "usercode/run/user_params.hpp"
#include "usercode/run/user_step.hpp"

namespace ks::app {

void SimulationRunner::set_user_step(std::shared_ptr<const UserStepChoice> choice) {
  if (choice) {
    if (!choice->kernel || !choice->kernel->ok())
      throw_usage("your kernel does not compile", "fix the errors the editor marks, then run it");
    const ElemType type = usercode::step_element(*choice->kernel);  // a usage Error for another family
    if (choice->params.size() != choice->kernel->declarations.parameters.size())
      throw Error(ErrorKind::Internal, "a user kernel's parameter values do not match its declarations");
    if (!user_worker_) user_worker_ = std::make_shared<usercode::WorkerClient>(usercode::WorkerClient::Options{});
    if (!user_tolerance_set_) user_tolerance_ = usercode::default_tolerance(type);
    // A run that stopped on an error (a fault, a time-out) goes on with the kernel that replaces it.
    if (error_) playing_ = true;
  }
  desired_.user = std::move(choice);
  user_check_.reset();
  user_difference_.reset();
  user_difference_picture_.reset();
}

void SimulationRunner::drop_user_step() {
  if (!desired_.user) return;
  desired_.user.reset();
  user_check_.reset();
  user_difference_.reset();
  user_difference_picture_.reset();
  if (active_) hooks_.notify(false, "your step kernel stopped: the simulation chosen runs its built-in steps");
}

void SimulationRunner::set_user_param(std::size_t index, double value) {
  if (!desired_.user) throw_usage("no step kernel of yours is running", "open one in the kernel editor and press Run");
  const auto& declared = desired_.user->kernel->declarations.parameters;
  if (index >= declared.size()) throw Error(ErrorKind::Internal, "no such declared parameter");
  // The same checks as the CLI's -p NAME=VALUE (never clamped).
  std::vector<std::string> assignments;
  for (std::size_t i = 0; i < declared.size(); ++i)
    assignments.push_back(fmt::format("{}={}", declared[i].name, i == index ? value : desired_.user->params[i]));
  UserStepChoice next = *desired_.user;
  next.params = usercode::user_param_values(next.kernel->declarations, assignments);
  desired_.user = std::make_shared<const UserStepChoice>(std::move(next));
}

void SimulationRunner::check_user_steps(long long steps) {
  if (!desired_.user) throw_usage("no step kernel of yours is running", "open one in the kernel editor and press Run");
  if (steps < 1 || steps > kMaxCheckSteps)
    throw_usage(fmt::format("cannot check {} steps", steps), fmt::format("check 1 .. {} steps", kMaxCheckSteps));
  for (const Action& a : actions_)
    if (a.kind == Action::Kind::Check) return;  // one is queued already
  Action check;
  check.kind = Action::Kind::Check;
  check.count = steps;
  actions_.push_back(check);
}

void SimulationRunner::set_user_tolerance(const usercode::Tolerance& tolerance) {
  if (!std::isfinite(tolerance.abs) || !std::isfinite(tolerance.rel) || tolerance.abs < 0 || tolerance.rel < 0)
    throw_usage("a tolerance is a number of 0 or more", "0 asks for exact equality");
  user_tolerance_ = tolerance;
  user_tolerance_set_ = true;
  if (desired_.user && user_check_) check_user_steps(user_check_->steps);
}

void SimulationRunner::set_show_difference(bool on) {
  show_difference_ = on;
  refresh_difference_picture();
}

void SimulationRunner::set_picture(const SimPicture& picture) {
  picture_ = picture;
  if (show_difference_) refresh_difference_picture();
}

void SimulationRunner::refresh_difference_picture() {
  if (!show_difference_ || !user_difference_) return;
  if (user_difference_picture_ && user_difference_range_.range_min == picture_.range_min &&
      user_difference_range_.range_max == picture_.range_max)
    return;
  // The heatmap's colours as values of the view's range, so the viewport's value window shows them unchanged.
  const Image heatmap = report::diff_heatmap(*user_difference_);
  Image picture(heatmap.width(), heatmap.height(), 4, ElemType::F32);
  const auto rgb = heatmap.elements<std::uint8_t>();
  auto out = picture.elements<float>();
  const float lo = picture_.range_min, span = picture_.range_max - picture_.range_min;
  for (std::size_t i = 0, n = std::size_t(heatmap.width()) * std::size_t(heatmap.height()); i < n; ++i) {
    for (int c = 0; c < 3; ++c) out[4 * i + c] = lo + span * (float(rgb[3 * i + std::size_t(c)]) / 255.f);
    out[4 * i + 3] = 1.f;  // opaque
  }
  user_difference_picture_ = std::make_shared<const Image>(std::move(picture));
  user_difference_range_ = picture_;
  user_difference_generation_ = hooks_.next_frame_generation();
}

void SimulationRunner::submit_user_check(long long steps) {
  const std::uint64_t ticket = ++ticket_;
  in_flight_ = true;
  worker_.submit(
      kJobKind, fmt::format("Checking {} step{} of your kernel", steps, steps == 1 ? "" : "s"),
      guarded(ticket, "checking your kernel",
              [this, ticket, sim = sim_, user = user_backend_, steps, tolerance = user_tolerance_](Worker::Context& ctx) {
                if (!user) throw_usage("the simulation runs no step kernel of yours");
                const UserCancelScope cancel(user, ctx);
                Image difference;
                UserStepCheck check = user->check(engine_, *sim, steps, tolerance, &difference);
                auto diff = std::make_shared<const Image>(std::move(difference));
                // The state did not move: only the check comes back.
                ctx.post([this, ticket, check = std::move(check), diff = std::move(diff)]() mutable {
                  in_flight_ = play_slice_in_flight_ = false;
                  if (ticket != ticket_ || !active_) return;
                  check.generation += generation_offset_;  // as the panel counts: across the kernels it carried on
                  user_check_ = std::move(check);
                  user_difference_ = std::move(diff);
                  user_difference_picture_.reset();
                  refresh_difference_picture();
                });
              }),
      false);
}

void SimulationRunner::apply_user_restart(UserStepBackend* backend) {
  user_backend_ = backend;
  user_check_.reset();
  user_difference_.reset();
  user_difference_picture_.reset();
  // A (re)start with the kernel of yours: its first step is checked at once (the state does not move).
  if (user_backend_ && desired_.user) check_user_steps(1);
}

}  // namespace ks::app
