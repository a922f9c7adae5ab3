// The stencil document's work on the session's worker — kernel runs, the CPU reference, the block sweep — and
// how their results come back. Jobs read only what they captured and the engine; they change the document by
// posting closures that StencilDocument::poll() runs on the GUI thread.
#include <fmt/format.h>

#include <chrono>
#include <algorithm>
#include <cmath>

#include "session/stencil/stencil_document.hpp"
#include "stencil/border.hpp"

namespace ks::app {

namespace {

// The largest difference between two images of the same shape, in their units, and whether they are equal.
template <class T>
CpuReference compare_elements(const Image& a, const Image& b) {
  CpuReference c;
  const auto x = a.elements<T>();
  const auto y = b.elements<T>();
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) worst = std::max(worst, std::abs(double(x[i]) - double(y[i])));
  c.max_abs_difference = worst;
  c.identical = worst == 0;
  return c;
}

CpuReference compare(const Image& gpu, const Image& cpu) {
  if (gpu.shape() != cpu.shape()) throw Error(ErrorKind::Internal, "CPU and GPU results differ in shape");
  switch (gpu.type()) {
    case ElemType::U8: return compare_elements<std::uint8_t>(gpu, cpu);
    case ElemType::U16: return compare_elements<std::uint16_t>(gpu, cpu);
    case ElemType::F32: return compare_elements<float>(gpu, cpu);
  }
  return {};
}

std::string backend_words(Backend b) { return b == Backend::Cuda ? "on the GPU" : "on the CPU"; }

}  // namespace

std::string StencilDocument::reference_key() const {
  std::string key = fmt::format("{}#{}", choice_.kernel->id, generations_.input);
  for (const auto& [name, value] : choice_.params.as_text()) key += "|" + name + "=" + value;
  return key;
}

void StencilDocument::poll() {
  if (run_requested_ && input_) {
    const Clock::time_point t = options_.now();
    if (!last_submit_ || t - *last_submit_ >= options_.debounce) {
      run_requested_ = false;
      last_submit_ = t;
      submit_run();
    }
  } else if (!input_) {
    run_requested_ = false;
  }
  if (cpu_reference_due()) submit_cpu_reference();
}

bool StencilDocument::start_requested_run() {
  if (!run_requested_ || !input_) return false;
  run_requested_ = false;
  last_submit_ = options_.now();
  submit_run();
  return true;
}

std::uint64_t StencilDocument::start_run() {
  if (!input_) throw_usage("no image is loaded", "open an image first");
  run_requested_ = false;
  last_submit_ = options_.now();
  submit_run();
  return next_ticket_;
}

void StencilDocument::throw_if_failed(std::uint64_t ticket) const {
  if (last_error_ && last_error_ticket_ == ticket) throw *last_error_;
}

void StencilDocument::drop_result() {
  run_requested_ = false;
  worker_.drop_waiting("run");
  worker_.supersede("cpu-reference");
  output_.reset();
  output_device_ = {};
  last_report_.reset();
  last_error_.reset();
  cpu_reference_.reset();
}

void StencilDocument::submit_run() {
  if (user_) return submit_user_run();
  const StencilRequest req = request();
  const std::uint64_t ticket = ++next_ticket_;
  const std::uint64_t generation = generations_.input;
  const bool is_signed = input_->type() == ElemType::F32 && produces_signed_output(choice_.kernel->id, choice_.params);
  const std::string label = fmt::format("Running {} ({}) {}", choice_.kernel->id, effective_variant(),
                                        backend_words(choice_.backend));
  worker_.supersede("cpu-reference");  // it would compare with a result about to be replaced
  worker_.submit("run", label, [this, req, ticket, generation, is_signed, input = input_](Worker::Context& ctx) {
    try {
      StencilResult result = engine_.run_stencil(*input, req);
      if (ctx.cancelled()) {
        ctx.post([this] { notify(Notice::Level::Info, Notice::Source::Run, "run cancelled; its result was dropped"); });
        return;
      }
      RunOutput out;
      if (!result.output.empty()) out.output = std::make_shared<const Image>(std::move(result.output));
      out.output_device = std::move(result.output_device);
      out.report = std::move(result.report);
      if (req.backend == Backend::Cuda) {
        const auto devices = list_devices();
        if (!devices.empty()) out.free_memory = devices.front().free_memory;
      }
      ctx.post([this, generation, is_signed, out = std::move(out)]() mutable {
        output_signed_ = is_signed;
        apply_run(generation, std::move(out));
      });
    } catch (const Error& e) {
      ctx.post([this, ticket, e] { fail_run(ticket, e); });
    }
  });
}

void StencilDocument::apply_run(std::uint64_t generation, RunOutput out) {
  if (generation != generations_.input) return;  // made from an image that is no longer loaded
  if (!hooks_.takes_results()) return;            // a stencil run that ended after a lab kernel was chosen
  ++runs_applied_;
  last_error_.reset();
  history_.add(timing_entry_of(out.report, runs_applied_, seconds_since_start(), generation));
  output_run_ = runs_applied_;
  output_ = std::move(out.output);
  output_device_ = std::move(out.output_device);
  ++generations_.output;
  if (out.free_memory) device_.free_memory = *out.free_memory;
  last_report_ = std::move(out.report);
  // A CPU run is its own reference; a CUDA result gets compared with one once the values stop changing (poll).
  cpu_reference_.reset();
  if (last_report_->backend == Backend::Cpu)
    cpu_reference_ = CpuReference{last_report_->kernel_time.median_ms, 0, true};
}

void StencilDocument::fail_run(std::uint64_t ticket, const Error& e) {
  last_error_ = e;
  last_error_ticket_ = ticket;
  notify(Notice::Level::Error, Notice::Source::Run, e.full_message());
}

bool StencilDocument::cpu_reference_due() const {
  return has_output() && last_report_ && last_report_->backend == Backend::Cuda && !cpu_reference_ &&
         reference_tried_for_ != generations_.output && !run_requested_ && worker_.idle();
}

void StencilDocument::submit_cpu_reference() {
  reference_tried_for_ = generations_.output;
  StencilRequest req = request();
  req.backend = Backend::Cpu;
  req.variant = "cpu";
  req.block.reset();
  req.repeat = options_.reference_repeat;
  // A user kernel filters every channel it is given: so does the reference it is checked against.
  if (user_) req.keep_alpha = false;
  const std::string key = reference_key() + (user_ ? "|all-channels" : "");
  // The CPU output of the same kernel, parameters and input is kept: comparing another variant or block with
  // it costs no new CPU run.
  std::shared_ptr<const Image> known = reference_key_ == key ? reference_output_ : nullptr;
  const double known_ms = reference_ms_;
  worker_.submit(
      "cpu-reference", "Running the CPU reference of " + choice_.kernel->id,
      [this, req, key, known, known_ms, input = input_, gpu_host = output_, gpu_device = output_device_,
       generation = generations_.output,
       user_tolerance = user_ ? std::optional(user_tolerance_) : std::nullopt,
       with_heatmap = show_difference_](Worker::Context& ctx) {
        try {
          // The shown result itself (no copy of a large image), or the device result brought down.
          const std::shared_ptr<const Image> gpu =
              gpu_host ? gpu_host : std::make_shared<const Image>(download_device_image(gpu_device));
          std::shared_ptr<const Image> cpu = known;
          double ms = known_ms;
          if (!cpu) {
            StencilResult r = engine_.run_stencil(*input, req);
            cpu = std::make_shared<const Image>(std::move(r.output));
            ms = r.report.kernel_time.median_ms;
          }
          if (ctx.cancelled()) {
            // A new result is on its way: no check of this one, but the CPU output serves the next check.
            if (!known)
              ctx.post([this, key, cpu, ms] {
                reference_key_ = key;
                reference_output_ = cpu;
                reference_ms_ = ms;
              });
            return;
          }
          // A user kernel's check compares every value once and gives the reference's figures too.
          std::optional<UserCheck> check;
          if (user_tolerance) check = check_user_result(*gpu, *cpu, *user_tolerance, with_heatmap);
          CpuReference ref = check ? CpuReference{0, check->comparison.max_abs_diff,
                                                  check->comparison.max_abs_diff == 0 &&
                                                      check->comparison.nan_mismatches == 0}
                                   : compare(*gpu, *cpu);
          ref.median_ms = ms;
          ctx.post([this, key, cpu, ref, generation, check = std::move(check)] {
            reference_key_ = key;
            reference_output_ = cpu;
            reference_ms_ = ref.median_ms;
            if (generations_.output == generation) {  // else another result is shown by now
              cpu_reference_ = ref;
              user_check_ = check;
            }
          });
        } catch (const Error& e) {
          ctx.post([this, e] { notify(Notice::Level::Error, Notice::Source::Reference, "CPU reference: " + e.full_message()); });
        }
      });
}

void StencilDocument::start_sweep() {
  if (!input_) throw_usage("no image is loaded", "open an image first");
  if (choice_.backend != Backend::Cuda || !device_.cuda)
    throw Error(ErrorKind::Usage, "the sweep times CUDA block shapes, and the backend in use is the CPU",
                device_.cuda ? "switch the backend to CUDA" : "this machine has no CUDA: " + device_.unavailable_reason);
  if (sweep_running_) throw_usage("a sweep is already running", "wait for it or cancel it");
  SweepGrid grid = make_sweep_grid(device_.info);
  grid.kernel = user_ ? user_->file_name : choice_.kernel->id;
  grid.variant = user_ ? "yours" : effective_variant();
  grid.shape = input_->shape();
  for (const auto& [name, value] : choice_.params.as_text()) grid.params += (grid.params.empty() ? "" : " ") + name + "=" + value;
  sweep_ = grid;
  sweep_running_ = true;
  StencilRequest req = request();
  req.variant = grid.variant;
  req.repeat = options_.sweep_repeat;
  req.keep_on_device = false;  // only the times matter
  req.download = true;
  const std::uint64_t generation = generations_.input;
  worker_.submit(
      "sweep", fmt::format("Sweeping block shapes of {} ({})", grid.kernel, grid.variant),
      [this, req, generation, grid, input = input_, user = user_, user_client = user_worker_,
       border = static_cast<int>(border_from_string(choice_.params.get_choice("border"))),
       border_value = choice_.params.get_float("border_value")](Worker::Context& ctx) mutable {
        SweepCallbacks cb;
        cb.measure = [&](BlockShape b) {
          StencilRequest r = req;
          r.block = b;
          if (user) return measure_user_block(*user, *user_client, *input, border, border_value, b);
          return engine_.run_stencil(*input, r).report;
        };
        cb.cancelled = [&] { return ctx.cancelled(); };
        cb.progress = [&](int done, int total, BlockShape next) {
          ctx.set_progress(total ? double(done) / total : 0,
                           fmt::format("block {}, {} of {}", to_string(next), done + 1, total));
          // The heatmap fills as the sweep goes.
          if (done > 0) ctx.post([this, generation, grid] {
            if (generation == generations_.input && sweep_) sweep_ = grid;
          });
        };
        run_sweep(grid, cb);
        ctx.post([this, generation, grid] {
          sweep_running_ = false;
          if (generation == generations_.input && sweep_) sweep_ = grid;
          if (!grid.complete)
            notify(Notice::Level::Info, Notice::Source::Sweep, "sweep cancelled; the shapes measured so far are kept");
        });
      },
      /*replace_waiting=*/false);
}

void StencilDocument::note_display(std::uint64_t generation, double ms) {
  if (generation == generations_.output && output_run_ != 0) history_.set_display_ms(output_run_, ms);
}

Image StencilDocument::output_on_host() const {
  if (output_) return *output_;
  if (output_device_) return download_device_image(output_device_);
  throw_usage("there is no result yet", "run a kernel first");
}

}  // namespace ks::app
