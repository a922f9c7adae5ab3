// The Lab running a user's own `array` kernel instead of the chosen lab kernel's variants: in the worker process
// (usercode/run), on the lab kernel's inputs (inputs/lab_user_inputs.hpp), reported like a built-in variant's
// run (report/user_lab_report.hpp) and checked against the lab kernel's CPU reference or a built-in variant of it
// (usercode/check).
#include <fmt/format.h>

#include "engine/engine.hpp"
#include "inputs/lab_user_inputs.hpp"
#include "report/user_lab_report.hpp"
#include "session/counters_handover.hpp"
#include "session/lab/lab_document.hpp"
#include "session/lab/lab_job_control.hpp"
#include "session/user_kernel_reply.hpp"
#include "usercode/check/compare.hpp"
#include "usercode/run/user_params.hpp"

namespace ks::app {

namespace {

// The threads per block of a user's array kernel: the Lab's block, or the array family's default.
unsigned user_block(const lab::LabRequest& request) {
  return request.block ? static_cast<unsigned>(request.block->x) : 256u;
}

}  // namespace

void LabDocument::set_user_kernel(std::optional<UserArrayChoice> choice) {
  if (choice) {
    if (!choice->kernel || !choice->kernel->ok())
      throw_usage("your kernel does not compile", "fix the errors the editor marks, then run it");
    const usercode::ArrayForm form = usercode::array_form(*choice->kernel);
    inputs::lab_array_mapping(spec(), request_.params, form);  // a usage Error naming the lab kernels that fit
    if (choice->params.size() != choice->kernel->declarations.parameters.size())
      throw Error(ErrorKind::Internal, "a user kernel's parameter values do not match its declarations");
    // An edit of the same kernel keeps the tolerances typed in; another element type gets its own defaults.
    if (!user_ || usercode::array_form(*user_->kernel).element != form.element)
      user_tolerance_ = usercode::default_tolerance(form.element);
    if (!user_worker_) user_worker_ = std::make_shared<usercode::WorkerClient>(usercode::WorkerClient::Options{});
  }
  user_ = std::move(choice);
  user_check_.reset();
  user_output_.reset();
  reference_output_.reset();
  last_error_.reset();
  if (user_) submit_user_run();
}

void LabDocument::set_user_param(std::size_t index, double value) {
  if (!user_) throw_usage("no kernel of yours is running", "open one in the kernel editor and press Run");
  // The same checks as the CLI's -p NAME=VALUE (never clamped).
  user_->params = usercode::with_user_param(user_->kernel->declarations, user_->params, index, value);
  submit_user_run();
}

void LabDocument::set_user_reference(const std::string& variant) {
  const VariantSpec* v = spec().find_variant(variant);
  if (!v) {
    std::string known;
    for (const VariantSpec& each : spec().variants) known += (known.empty() ? "" : ", ") + each.name;
    throw_usage(fmt::format("{} has no variant '{}' to check your kernel against", spec().id, variant),
                "its variants: " + known);
  }
  if (v->backend == Backend::Cuda && !options_.cuda)
    throw_usage(fmt::format("{}:{} runs on the GPU, and CUDA is not usable here ({})", spec().id, variant,
                            options_.cuda_unavailable),
                "check against " + spec().id + ":cpu");
  if (variant == user_reference_) return;
  user_reference_ = variant;
  if (user_) submit_user_run();
}

void LabDocument::set_user_tolerance(const usercode::Tolerance& tolerance) {
  usercode::check_tolerance(tolerance);
  user_tolerance_ = tolerance;
  if (!user_check_ || !user_output_ || !reference_output_) return;
  // Compared again on the kept outputs: no run, no CPU reference.
  user_check_->comparison = usercode::compare_arrays(*user_output_, *reference_output_, tolerance);
  if (last_run_ && last_run_->key == current_key()) {
    last_run_->report.check = report::lab_check_of(user_check_->comparison, user_check_->reference);
    for (LabRun& kept : runs_)
      if (kept.key == last_run_->key) kept.report.check = last_run_->report.check;
  }
}

void LabDocument::submit_user_run() {
  const UserArrayChoice user = *user_;
  const KernelSpec* lab_kernel = &spec();
  const lab::LabRequest request = request_;
  const lab::LabSize size = effective_size();
  const std::string key = current_key();
  const usercode::Tolerance tolerance = user_tolerance_;
  const bool cuda = options_.cuda;
  const std::string reference_variant = user_reference_;
  ++runs_in_flight_;
  worker_.submit(
      "lab-run",
      fmt::format("Lab: your kernel {} on {}'s inputs at {}", user.file_name, lab_kernel->id,
                  lab::short_text(size.n())),
      [this, user, lab_kernel, request, size, key, tolerance, cuda, reference_variant, client = user_worker_,
       counter_set = counter_set_](Worker::Context& ctx) {
        try {
          const usercode::ArrayForm form = usercode::array_form(*user.kernel);
          const inputs::LabArrayMapping mapping = inputs::lab_array_mapping(*lab_kernel, request.params, form);
          ctx.set_progress(0, "making " + lab_kernel->id + "'s inputs");
          const std::vector<NdArray> lab_arrays =
              inputs::lab_inputs(*lab_kernel, size, request.params, request.seed, engine_.pool(), mapping);
          std::vector<NdArray> kernel_inputs;
          std::vector<std::span<const std::byte>> spans;
          for (const NdArray& a : lab_arrays) kernel_inputs.push_back(inputs::as_element_type(a, form.element));
          for (const NdArray& a : kernel_inputs) spans.emplace_back(a.data);

          usercode::UserLaunchOptions launch;
          launch.params = user.params;
          launch.block = {user_block(request), 1};
          launch.warmup = options_.warmup;
          launch.repeat = options_.repeat;
          launch.counters = request.counters;  // the Timing section's switch
          launch.counter_set = counter_set;
          if (launch.counters) hand_counters_to_worker(engine_);
          launch.cancelled = [&ctx] { return ctx.cancelled(); };  // Cancel, or the app closing, stops the worker
          ctx.set_progress(0.2, "running your kernel on the GPU");
          const usercode::UserArrayRun run = usercode::run_user_array(*client, *user.kernel, spans,
                                                                      static_cast<std::size_t>(size.n()), launch);
          throw_unless_run_ok(run.reply);

          JobControl job(ctx, [&ctx](double f, const std::string& stage) { ctx.set_progress(0.6 + 0.4 * f, stage); });
          const inputs::LabReference reference =
              inputs::run_lab_reference(engine_, *lab_kernel, reference_variant, size, request.params, request.seed,
                                        mapping, lab_arrays, form.element, job.control);
          auto output = std::make_shared<NdArray>();
          output->name = "out";
          output->type = form.element;
          output->shape = {static_cast<std::int64_t>(run.output.size() / dtype_size(form.element))};
          output->data = run.output;
          UserCheck check;
          check.comparison = usercode::compare_arrays(*output, reference.output, tolerance, &engine_.pool());
          check.reference = reference.label;
          check.inputs = mapping.inputs;
          check.output = mapping.output;

          report::UserRunContext context;
          context.file_name = user.file_name;
          context.kernel = user.kernel.get();
          context.device = client->hello().device;
          if (cuda) {
            context.device_info = &engine_.cuda().device();
            context.copy_bandwidth_gbps = engine_.cuda().copy_bandwidth_gbps();
            context.peaks = engine_.peaks(Backend::Cuda);
          }
          const auto& declared = user.kernel->declarations.parameters;
          for (std::size_t i = 0; i < declared.size(); ++i)
            context.params.emplace_back(declared[i].name, fmt::format("{:g}", user.params[i]));
          for (const auto& p : request.params.as_text()) context.params.push_back(p);
          lab::LabResult result;
          result.report = report::user_array_lab_report(
              context, {lab_kernel, &request.params, size, form, &run, request.seed, options_.warmup});
          if (reference_variant == "cpu") result.report.cpu_reference_ms = reference.ms;
          result.report.check = report::lab_check_of(check.comparison, reference.label);
          std::string inputs_text;
          for (std::size_t i = 0; i < mapping.inputs.size(); ++i)
            inputs_text += fmt::format("{}in{} = {}", i ? ", " : "", i + 1, mapping.inputs[i]);
          result.report.notes.push_back(fmt::format("your kernel {} ({}) on {}'s inputs: {}; out against {}",
                                                    user.kernel->entry_facts().name, user.file_name,
                                                    lab_kernel->id, inputs_text, mapping.output));
          auto expected = std::make_shared<const NdArray>(reference.output);
          ctx.post([this, key, file = user.file_name, result = std::move(result), check = std::move(check),
                    output = std::shared_ptr<const NdArray>(output), expected]() mutable {
            --runs_in_flight_;
            if (user_ && user_->file_name == file) {
              user_check_ = std::move(check);
              user_output_ = output;
              reference_output_ = expected;
            }
            apply_run(std::move(result), key);
          });
        } catch (const Error& e) {
          ctx.post([this, e] { fail_run(e); });
        } catch (const std::exception& e) {  // out of memory and the like: the Lab section must not wait forever
          ctx.post([this, what = std::string(e.what())] {
            --runs_in_flight_;
            last_error_ = Error(ErrorKind::Internal, "your kernel's run failed: " + what, "this is a bug of kernelscope");
          });
        }
      },
      /*replace_waiting=*/false);
}

}  // namespace ks::app
