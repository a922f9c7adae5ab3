// The session's running and showing, over the active document: poll() applies what the worker posted and lets
// each document start what is due; run_now, wait_idle, the display frame and the exports go to the document of
// the kernel chosen. The device probe is the session's own job.
#include <fmt/format.h>

#include <chrono>
#include <thread>

#include "session/lab/lab_document.hpp"
#include "session/lab/lab_exports.hpp"
#include "session/session.hpp"
#include "session/simulation/simulation_runner.hpp"
#include "session/topology/topology_document.hpp"

namespace ks::app {

void Session::start_device_probe() {
  worker_->submit("device", "Measuring the GPU's copy bandwidth", [this](Worker::Context& ctx) {
    const double gbps = engine_->cuda().copy_bandwidth_gbps();
    ctx.post([this, gbps] { device_.copy_bandwidth_gbps = gbps; });
  });
}

void Session::request_run() {
  if (in_lab()) return;  // lab runs start from the Lab section's Run (they can take seconds)
  if (!simulating()) {
    stencil_->request_run();
    return;
  }
  simulation_->configure(choice_.kernel->id, choice_.params, choice_.backend, choice_.variant, choice_.block, stencil_->shared_input());
}

void Session::poll() {
  for (auto& apply : worker_->take_posted()) {
    apply();
    ++updates_applied_;
  }
  if (simulating()) {
    simulation_->tick();
    if (choice_.backend == Backend::Cuda) sync_simulation_launch_info();
  }
  stencil_->poll();
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
    // A run is requested but not due yet: waiting here is what the caller asked for, so it starts now.
    if (!stencil_->start_requested_run()) return;
  }
}

void Session::run_now() {
  if (simulating()) return run_simulation_now();
  if (in_lab()) return run_lab_now();
  const std::uint64_t ticket = stencil_->start_run();
  worker_->wait_idle();
  poll();
  stencil_->throw_if_failed(ticket);
}

void Session::cancel() { worker_->cancel_running(); }

void Session::shut_down() {
  worker_->stop();
  if (topology_) topology_->shut_down();
}

void Session::start_sweep() {
  if (simulating()) throw_usage("the sweep times image stencils", "pick the simulation's block by hand and read its step time");
  if (in_lab()) throw_usage("the block sweep times image stencils", "the Lab section sweeps sizes instead");
  stencil_->start_sweep();
}

bool Session::has_output() const noexcept {
  if (in_lab()) return lab_->result_image() != nullptr;
  return simulating() ? simulation_->has_frame() : stencil_->has_output();
}

void Session::note_display(std::uint64_t generation, double ms, std::string path) {
  if (simulating()) simulation_->note_displayed(generation, ms);
  display_path_ = std::move(path);
  stencil_->note_display(generation, ms);
}

ui::DisplayFrame Session::display_frame() const {
  ui::DisplayFrame f = simulating() ? simulation_frame() : in_lab() ? lab_frame() : stencil_frame();
  if (stencil_->user_gpu_work_cut_off() || lab_->user_gpu_work_cut_off() || simulation_->user_gpu_work_cut_off())
    f.interop_refused = "CUDA-GL interop is off since your kernel's GPU work was cut off (a fault or a stopped "
                        "launch): this driver draws interop frames black after that";
  return f;
}

ui::DisplayFrame Session::stencil_frame() const {
  ui::DisplayFrame f;
  f.input = stencil_->input();
  f.output = stencil_->output();
  f.output_device = stencil_->output_device();
  f.input_generation = generations_.input;
  f.output_generation = generations_.output;
  f.signed_output = has_output() && stencil_->output_signed();
  if (stencil_->user_kernel()) f.host_origin = ui::kUserResultOnHost;
  if (stencil_->showing_difference()) {
    // A user kernel's |difference| from its reference in place of the result: a generation of its own (the top
    // bit), so that turning it on and off uploads, and its display time is not taken for the result's.
    f.output = stencil_->user_check()->heatmap.get();
    f.output_device = {};
    f.output_generation = generations_.output | (std::uint64_t{1} << 63);
    f.signed_output = false;
    f.host_origin = ui::kDifferenceOnHost;
  }
  return f;
}

void Session::export_result(const std::filesystem::path& path, const SaveOptions& options) const {
  if (simulating()) return simulation_->export_frame(path);  // as the view shows it, with a sidecar
  if (in_lab()) {
    if (!lab_->result_image() || !lab_->last_run())
      throw_usage("this lab kernel made no image to export", "kmeans makes one: run it; export timings instead");
    return export_lab_image(*lab_->result_image(), path, options, lab_->last_run()->report);
  }
  stencil_->export_result(path, options, display_path_);
}

void Session::export_result_async(const std::filesystem::path& path, const SaveOptions& options) {
  if (simulating() || in_lab()) {  // a frame or a lab image: quick
    export_result(path, options);
    const std::string sidecar = sidecar_path_for(path).filename().string();
    notify(Notice::Level::Info, Notice::Source::Export, "exported " + path.string() + " and " + sidecar);
    return;
  }
  stencil_->export_result_async(path, options, display_path_);
}

Image Session::output_on_host() const {
  if (in_lab() && lab_->result_image()) return *lab_->result_image();
  return stencil_->output_on_host();
}

void Session::export_timings(const std::filesystem::path& path) const {
  if (in_lab()) {
    if (!lab_->last_run()) throw_usage("there are no lab timings to export yet", "press Run in the Lab section");
    return export_lab_timings(path, lab_->last_run()->report, lab_->sweep());
  }
  stencil_->export_timings(path);
}

}  // namespace ks::app
