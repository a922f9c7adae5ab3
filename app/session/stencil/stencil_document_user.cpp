// The image document running a user's own stencil kernel instead of the built-in one: in the worker process
// (usercode/run), with the built-in's border mode, timed and reported like a built-in run, and checked against the
// chosen built-in kernel's CPU reference (stencil_document_runs.cpp).
#include <fmt/format.h>

#include "report/diff_heatmap.hpp"
#include "report/user_run_report.hpp"
#include "usercode/check/compare.hpp"
#include "session/counters_handover.hpp"
#include "session/stencil/stencil_document.hpp"
#include "session/user_kernel_reply.hpp"
#include "stencil/border.hpp"
#include "usercode/check/tolerance.hpp"
#include "usercode/run/user_params.hpp"

namespace ks::app {

void StencilDocument::set_user_kernel(std::optional<UserStencilChoice> choice) {
  if (choice) {
    if (!choice->kernel || !choice->kernel->ok())
      throw_usage("your kernel does not compile", "fix the errors the editor marks, then run it");
    const usercode::StencilForm form = usercode::stencil_form(*choice->kernel);
    if (choice->params.size() != choice->kernel->declarations.parameters.size())
      throw Error(ErrorKind::Internal, "a user kernel's parameter values do not match its declarations");
    if (input_ && input_->type() != form.type) {
      set_element_type(form.type);
      notify(Notice::Level::Info, Notice::Source::Run,
             fmt::format("your kernel takes {} images, so the image now runs as {}", to_string(form.type),
                         to_string(form.type)));
    }
    if (!user_worker_) user_worker_ = std::make_shared<usercode::WorkerClient>(usercode::WorkerClient::Options{});
  }
  user_ = std::move(choice);
  if (input_) user_tolerance_ = usercode::default_tolerance(input_->type());
  // The shown result, its report and reference belong to the other kernel: none is shown until this one's arrives.
  output_.reset();
  output_device_ = {};
  last_report_.reset();
  ++generations_.output;
  cpu_reference_.reset();
  user_check_.reset();
  sweep_.reset();
  request_run();
}

void StencilDocument::set_user_param(std::size_t index, double value) {
  if (!user_) throw_usage("no kernel of yours is running", "open one in the kernel editor and press Run");
  // The same checks as the CLI's -p NAME=VALUE (never clamped).
  user_->params = usercode::with_user_param(user_->kernel->declarations, user_->params, index, value);
  request_run();
}

StencilDocument::UserCheck StencilDocument::check_user_result(const Image& result, const Image& reference,
                                                              const usercode::Tolerance& tolerance,
                                                              bool with_heatmap) const {
  UserCheck check;
  check.comparison = usercode::compare_images(result, reference, tolerance, &engine_.pool());
  if (with_heatmap) {
    const Image diff = usercode::difference_image(result, reference, &engine_.pool());
    check.heatmap = std::make_shared<const Image>(convert_channels(report::diff_heatmap(diff), 4));
  }
  return check;
}

void StencilDocument::set_show_difference(bool on) {
  show_difference_ = on;
  if (on && user_check_ && !user_check_->heatmap) {
    // Checked again with the heatmap (the CPU result is kept, so no CPU run).
    cpu_reference_.reset();
    user_check_.reset();
    reference_tried_for_ = 0;
  }
}

void StencilDocument::set_user_tolerance(const usercode::Tolerance& tolerance) {
  if (!(tolerance.abs >= 0) || !(tolerance.rel >= 0))
    throw_usage("a tolerance is a number of 0 or more", "0 asks for exact equality");
  user_tolerance_ = tolerance;
  // Compared again; the CPU result is kept, so this costs no CPU run.
  cpu_reference_.reset();
  user_check_.reset();
  reference_tried_for_ = 0;
}

RunReport StencilDocument::user_report(const usercode::UserStencilRun& run, const UserStencilChoice& user,
                                       const std::string& border, const usercode::WorkerHello& hello,
                                       const ImageShape& shape) const {
  report::UserRunContext context;
  context.file_name = user.file_name;
  context.kernel = user.kernel.get();
  context.device = hello.device;
  const DeviceInfo& device = engine_.cuda().device();
  context.device_info = &device;
  context.copy_bandwidth_gbps = engine_.cuda().copy_bandwidth_gbps();
  context.peaks = engine_.peaks(Backend::Cuda);
  const auto& declared = user.kernel->declarations.parameters;
  for (std::size_t i = 0; i < declared.size(); ++i)
    context.params.emplace_back(declared[i].name, fmt::format("{:g}", user.params[i]));
  context.params.emplace_back("border", border);
  return report::user_stencil_report(context, shape, run.block, run.reply);
}


RunReport StencilDocument::measure_user_block(const UserStencilChoice& user, usercode::WorkerClient& client,
                                              const Image& input, int border, double border_value,
                                              BlockShape block) const {
  usercode::UserLaunchOptions launch;
  launch.params = user.params;
  launch.block = {static_cast<unsigned>(block.x), static_cast<unsigned>(block.y)};
  launch.warmup = options_.warmup;
  launch.repeat = options_.sweep_repeat;
  const usercode::UserStencilRun run = usercode::run_user_stencil(client, *user.kernel, input, border, border_value, launch);
  throw_unless_run_ok(run.reply);
  return user_report(run, user, to_string(static_cast<Border>(border)), client.hello(), input.shape());
}

void StencilDocument::submit_user_run() {
  const std::uint64_t ticket = ++next_ticket_;
  const std::uint64_t generation = generations_.input;
  const UserStencilChoice user = *user_;
  const int border = static_cast<int>(border_from_string(choice_.params.get_choice("border")));
  const double border_value = choice_.params.get_float("border_value");
  usercode::UserLaunchOptions launch;
  launch.params = user.params;
  if (choice_.block) launch.block = {static_cast<unsigned>(choice_.block->x), static_cast<unsigned>(choice_.block->y)};
  launch.warmup = options_.warmup;
  launch.repeat = options_.repeat;
  launch.counters = counters_;  // the Timing section's switch: the worker reads them after the timed launches
  launch.counter_set = counter_set_;
  // The image stays on the GPU (and in the shared memory) while only the kernel or its parameters change.
  launch.input_key = fmt::format("input#{}", generation);
  worker_.supersede("cpu-reference");
  worker_.submit(
      "run", fmt::format("Running your kernel {} on the GPU", user.kernel->entry_facts().name),
      [this, user, launch, border, border_value, ticket, generation, input = input_,
       client = user_worker_](Worker::Context& ctx) mutable {
        try {
          launch.cancelled = [&ctx] { return ctx.cancelled(); };  // Cancel, or the app closing, stops the worker
          if (launch.counters) hand_counters_to_worker(engine_);
          usercode::UserStencilRun run =
              usercode::run_user_stencil(*client, *user.kernel, *input, border, border_value, launch);
          throw_unless_run_ok(run.reply);
          RunOutput out;
          out.report = user_report(run, user, to_string(static_cast<Border>(border)), client->hello(), input->shape());
          out.output = std::make_shared<const Image>(std::move(run.output));
          ctx.post([this, generation, out = std::move(out)]() mutable {
            output_signed_ = false;
            apply_run(generation, std::move(out));
          });
        } catch (const Error& e) {
          if (e.kind() == ErrorKind::Cancelled)  // as a built-in run that is cancelled: no error, no result
            ctx.post([this] { notify(Notice::Level::Info, Notice::Source::Run, "run cancelled; its result was dropped"); });
          else
            ctx.post([this, ticket, e] { fail_run(ticket, e); });
        }
      });
}

}  // namespace ks::app
