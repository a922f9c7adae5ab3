// The session's work on its worker thread — kernel runs, the CPU reference, the block sweep, the device probe —
// and how their results come back through poll(). Jobs read only what they captured and the engine; they
// change the session by posting closures that poll() runs on the GUI thread.
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "inputs/image_files.hpp"
#include "session/lab/lab_document.hpp"
#include "session/lab/lab_exports.hpp"
#include "session/session.hpp"
#include "session/topology/topology_document.hpp"

namespace ks::app {

struct Session::RunOutput {
  std::shared_ptr<const Image> output;  // null when the result stayed on the GPU only
  DeviceImageRef output_device;
  RunReport report;
  std::optional<std::size_t> free_memory;
};

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

std::string Session::reference_key() const {
  std::string key = fmt::format("{}#{}", kernel_->id, input_generation_);
  for (const auto& [name, value] : params_.as_text()) key += "|" + name + "=" + value;
  return key;
}

void Session::start_device_probe() {
  worker_->submit("device", "Measuring the GPU's copy bandwidth", [this](Worker::Context& ctx) {
    const double gbps = engine_->cuda().copy_bandwidth_gbps();
    ctx.post([this, gbps] { device_.copy_bandwidth_gbps = gbps; });
  });
}

void Session::request_run() {
  if (in_lab()) return;  // lab runs start from the Lab section's Run (they can take seconds)
  if (!simulating()) {
    run_requested_ = true;
    return;
  }
  simulation_->configure(kernel_->id, params_, backend_, variant_, block_, input_);
}

void Session::poll() {
  for (auto& apply : worker_->take_posted()) apply();
  if (simulating()) {
    simulation_->tick();
    if (backend_ == Backend::Cuda) sync_simulation_launch_info();
  }
  if (run_requested_ && input_) {
    const Clock::time_point t = now();
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

void Session::wait_idle() {
  // A playing simulation never runs out of work: what is waited for is what was asked (restarts, steps, paints).
  simulation_->hold_playback(true);
  struct Release {
    SimulationRunner& s;
    ~Release() { s.hold_playback(false); }
  } release{*simulation_};
  for (;;) {
    worker_->wait_idle();
    poll();  // applies results; may start a due run or a CPU reference
    // A job that poll() started may already have ended and posted its result: apply that before returning.
    if (!worker_->idle() || worker_->has_posted()) continue;
    if (!simulation_->settled()) {  // a CUDA frame not yet drawn holds the next step for a moment
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    if (!run_requested_ || !input_) return;
    // A run is requested but not due yet: waiting here is what the caller asked for, so it starts now.
    run_requested_ = false;
    last_submit_ = now();
    submit_run();
  }
}

void Session::run_now() {
  if (simulating()) return run_simulation_now();
  if (in_lab()) return run_lab_now();
  if (!input_) throw_usage("no image is loaded", "open an image first");
  run_requested_ = false;
  last_submit_ = now();
  submit_run();
  const std::uint64_t ticket = next_ticket_;
  worker_->wait_idle();
  poll();
  if (last_error_ && last_error_ticket_ == ticket) throw *last_error_;
}

void Session::cancel() { worker_->cancel_running(); }

void Session::shut_down() {
  worker_->stop();
  if (topology_) topology_->shut_down();
}

void Session::submit_run() {
  const StencilRequest req = request();
  const std::uint64_t ticket = ++next_ticket_;
  const std::uint64_t generation = input_generation_;
  const bool is_signed = input_->type() == ElemType::F32 && produces_signed_output(kernel_->id, params_);
  const std::string label = fmt::format("Running {} ({}) {}", kernel_->id, effective_variant(),
                                        backend_words(backend_));
  worker_->drop_waiting("cpu-reference");  // it would compare with a result about to be replaced
  worker_->submit("run", label, [this, req, ticket, generation, is_signed, input = input_](Worker::Context& ctx) {
    try {
      StencilResult result = engine_->run_stencil(*input, req);
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

void Session::apply_run(std::uint64_t generation, RunOutput out) {
  if (generation != input_generation_) return;  // made from an image that is no longer loaded
  if (in_lab()) return;                           // a stencil run that ended after a lab kernel was chosen
  ++runs_applied_;
  last_error_.reset();
  history_.add(timing_entry_of(out.report, runs_applied_, seconds_since_start(), generation));
  output_run_ = runs_applied_;
  output_ = std::move(out.output);
  output_device_ = std::move(out.output_device);
  ++output_generation_;
  if (out.free_memory) device_.free_memory = *out.free_memory;
  last_report_ = std::move(out.report);
  // A CPU run is its own reference; a CUDA result gets compared with one once the values stop changing (poll).
  cpu_reference_.reset();
  if (last_report_->backend == Backend::Cpu)
    cpu_reference_ = CpuReference{last_report_->kernel_time.median_ms, 0, true};
}

void Session::fail_run(std::uint64_t ticket, const Error& e) {
  last_error_ = e;
  last_error_ticket_ = ticket;
  notify(Notice::Level::Error, Notice::Source::Run, e.full_message());
}

bool Session::cpu_reference_due() const {
  return has_output() && last_report_ && last_report_->backend == Backend::Cuda && !cpu_reference_ &&
         reference_tried_for_ != output_generation_ && !run_requested_ && worker_->idle();
}

void Session::submit_cpu_reference() {
  reference_tried_for_ = output_generation_;
  StencilRequest req = request();
  req.backend = Backend::Cpu;
  req.variant = "cpu";
  req.block.reset();
  req.repeat = options_.reference_repeat;
  const std::string key = reference_key();
  // The CPU output of the same kernel, parameters and input is kept: comparing another variant or block with
  // it costs no new CPU run.
  std::shared_ptr<const Image> known = reference_key_ == key ? reference_output_ : nullptr;
  const double known_ms = reference_ms_;
  worker_->submit(
      "cpu-reference", "Running the CPU reference of " + kernel_->id,
      [this, req, key, known, known_ms, input = input_, gpu_host = output_, gpu_device = output_device_,
       generation = output_generation_](Worker::Context& ctx) {
        try {
          const Image gpu = gpu_host ? *gpu_host : download_device_image(gpu_device);
          std::shared_ptr<const Image> cpu = known;
          double ms = known_ms;
          if (!cpu) {
            StencilResult r = engine_->run_stencil(*input, req);
            cpu = std::make_shared<const Image>(std::move(r.output));
            ms = r.report.kernel_time.median_ms;
          }
          if (ctx.cancelled()) return;
          CpuReference ref = compare(gpu, *cpu);
          ref.median_ms = ms;
          ctx.post([this, key, cpu, ref, generation] {
            reference_key_ = key;
            reference_output_ = cpu;
            reference_ms_ = ref.median_ms;
            if (output_generation_ == generation) cpu_reference_ = ref;  // else another result is shown by now
          });
        } catch (const Error& e) {
          ctx.post([this, e] { notify(Notice::Level::Error, Notice::Source::Reference, "CPU reference: " + e.full_message()); });
        }
      });
}

void Session::start_sweep() {
  if (simulating()) throw_usage("the sweep times image stencils", "pick the simulation's block by hand and read its step time");
  if (in_lab()) throw_usage("the block sweep times image stencils", "the Lab section sweeps sizes instead");
  if (!input_) throw_usage("no image is loaded", "open an image first");
  if (backend_ != Backend::Cuda || !device_.cuda)
    throw Error(ErrorKind::Usage, "the sweep times CUDA block shapes, and the backend in use is the CPU",
                device_.cuda ? "switch the backend to CUDA" : "this machine has no CUDA: " + device_.unavailable_reason);
  if (sweep_running_) throw_usage("a sweep is already running", "wait for it or cancel it");
  SweepGrid grid = make_sweep_grid(device_.info);
  grid.kernel = kernel_->id;
  grid.variant = effective_variant();
  grid.shape = input_->shape();
  for (const auto& [name, value] : params_.as_text()) grid.params += (grid.params.empty() ? "" : " ") + name + "=" + value;
  sweep_ = grid;
  sweep_running_ = true;
  StencilRequest req = request();
  req.variant = grid.variant;
  req.repeat = options_.sweep_repeat;
  req.keep_on_device = false;  // only the times matter
  req.download = true;
  const std::uint64_t generation = input_generation_;
  worker_->submit(
      "sweep", fmt::format("Sweeping block shapes of {} ({})", grid.kernel, grid.variant),
      [this, req, generation, grid, input = input_](Worker::Context& ctx) mutable {
        SweepCallbacks cb;
        cb.measure = [&](BlockShape b) {
          StencilRequest r = req;
          r.block = b;
          return engine_->run_stencil(*input, r).report;
        };
        cb.cancelled = [&] { return ctx.cancelled(); };
        cb.progress = [&](int done, int total, BlockShape next) {
          ctx.set_progress(total ? double(done) / total : 0,
                           fmt::format("block {}, {} of {}", to_string(next), done + 1, total));
          // The heatmap fills as the sweep goes.
          if (done > 0) ctx.post([this, generation, grid] {
            if (generation == input_generation_ && sweep_) sweep_ = grid;
          });
        };
        run_sweep(grid, cb);
        ctx.post([this, generation, grid] {
          sweep_running_ = false;
          if (generation == input_generation_ && sweep_) sweep_ = grid;
          if (!grid.complete)
            notify(Notice::Level::Info, Notice::Source::Sweep, "sweep cancelled; the shapes measured so far are kept");
        });
      },
      /*replace_waiting=*/false);
}

bool Session::has_output() const noexcept {
  if (in_lab()) return lab_->result_image() != nullptr;
  return simulating() ? simulation_->has_frame() : bool(output_ || output_device_);
}

void Session::note_display(std::uint64_t generation, double ms, std::string path) {
  if (simulating()) simulation_->note_displayed(generation, ms);
  display_path_ = std::move(path);
  if (generation == output_generation_ && output_run_ != 0) history_.set_display_ms(output_run_, ms);
}

ui::DisplayFrame Session::display_frame() const {
  if (simulating()) return simulation_frame();
  if (in_lab()) return lab_frame();
  ui::DisplayFrame f;
  f.input = input_.get();
  f.output = output_.get();
  f.output_device = output_device_;
  f.input_generation = input_generation_;
  f.output_generation = output_generation_;
  f.signed_output = has_output() && output_signed_;
  return f;
}

void Session::export_result(const std::filesystem::path& path, const SaveOptions& options) const {
  if (simulating()) return simulation_->export_frame(path);  // as the view shows it, with a sidecar
  if (in_lab()) {
    if (!lab_->result_image() || !lab_->last_run())
      throw_usage("this lab kernel made no image to export", "kmeans makes one: run it; export timings instead");
    return export_lab_image(*lab_->result_image(), path, options, lab_->last_run()->report);
  }
  ks::app::export_result(inputs::to_file_layout(output_on_host(), loaded_shape_), path, options, provenance());
}

ResultProvenance Session::provenance() const {
  if (!has_output() || !last_report_) throw_usage("there is no result to export yet", "run a kernel first");
  ResultProvenance p;
  p.input = input_name_;
  p.input_shape = loaded_shape_;
  p.report = *last_report_;
  p.history = history_.summary(last_report_->kernel);
  p.cpu_reference = cpu_reference_;
  p.display_path = display_path_;
  return p;
}

void Session::export_result_async(const std::filesystem::path& path, const SaveOptions& options) {
  const std::string sidecar = sidecar_path_for(path).filename().string();
  if (simulating() || in_lab()) {  // a frame or a lab image: quick
    export_result(path, options);
    notify(Notice::Level::Info, Notice::Source::Export, "exported " + path.string() + " and " + sidecar);
    return;
  }
  // What is exported is the result of now: the job holds it (and its provenance) whatever runs after.
  worker_->submit(
      "export", "Exporting " + path.filename().string(),
      [this, path, options, sidecar, p = provenance(), host = output_, device = output_device_,
       shape = loaded_shape_](Worker::Context& ctx) {
        try {
          SaveOptions o = options;
          o.progress = [&ctx](double fraction) {
            ctx.set_progress(fraction, fmt::format("{:.0f}% written", fraction * 100));
            return !ctx.cancelled();
          };
          ks::app::export_result(inputs::to_file_layout(host ? *host : download_device_image(device), shape), path,
                                 o, p);
          ctx.post([this, path, sidecar] {
            notify(Notice::Level::Info, Notice::Source::Export, "exported " + path.string() + " and " + sidecar);
          });
        } catch (const Error& e) {
          const bool cancelled = e.kind() == ErrorKind::Cancelled;
          ctx.post([this, path, cancelled, text = e.full_message()] {
            if (cancelled)
              notify(Notice::Level::Cancelled, Notice::Source::Export, "exporting " + path.string() + " was cancelled");
            else
              notify(Notice::Level::Error, Notice::Source::Export, text);
          });
        }
      },
      /*replace_waiting=*/false);
}

Image Session::output_on_host() const {
  if (in_lab() && lab_->result_image()) return *lab_->result_image();
  if (output_) return *output_;
  if (output_device_) return download_device_image(output_device_);
  throw_usage("there is no result yet", "run a kernel first");
}

void Session::export_timings(const std::filesystem::path& path) const {
  if (in_lab()) {
    if (!lab_->last_run()) throw_usage("there are no lab timings to export yet", "press Run in the Lab section");
    return export_lab_timings(path, lab_->last_run()->report, lab_->sweep());
  }
  if (history_.empty()) throw_usage("there are no timings to export yet", "run a kernel first");
  ks::app::export_timings(path, history_.all(), device_.cuda ? device_.info.name : device_.cpu,
                          device_.copy_bandwidth_gbps);
}

}  // namespace ks::app
