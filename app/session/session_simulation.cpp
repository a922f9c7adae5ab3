// The session's side of a live simulation: while a kernel of category `simulation` is selected, the request
// (parameters, backend, variant, block, loaded image) goes to the SimulationRunner instead of a stencil run, and
// the display shows the runner's frames. The runner does the work; these are the seams.
#include <fmt/format.h>

#include "session/session.hpp"

namespace ks::app {

void Session::make_simulation_runner() {
  SimulationRunner::Hooks hooks;
  // Frames and stencil results share the output generation, so the renderer never mistakes one for the other.
  hooks.next_frame_generation = [this] { return ++generations_.output; };
  // A grid of another shape counts as a new input: the viewport fits it (and a stencil run afterwards re-uploads
  // the image, which is what it needs then).
  hooks.grid_changed = [this] { ++generations_.input; };
  hooks.notify = [this](bool error, std::string text) {
    notify(error ? Notice::Level::Error : Notice::Level::Info, Notice::Source::Run, std::move(text));
  };
  hooks.app_uses_cuda = device_.cuda;
  simulation_ = std::make_unique<SimulationRunner>(*engine_, *worker_, std::move(hooks));
  simulation_->set_counter_set(counter_set_);
}

void Session::enter_simulation() { stencil_->drop_result(); }  // the simulation shows its own frames

ui::DisplayFrame Session::simulation_frame() const {
  ui::DisplayFrame f;
  const SimulationFrame& frame = simulation_->frame();
  f.output = frame.host.get();
  f.output_device = frame.device;
  f.input_generation = generations_.input;
  f.output_generation = frame.generation;
  if (frame.window) {  // a world past 2^30 cells: the window the view asked for, population per pixel
    f.output_placement = ui::OutputPlacement{frame.window->x0, frame.window->y0, frame.window->cells_per_pixel,
                                             frame.world_width, frame.world_height};
    const auto& report = simulation_->report();
    if (report && report->backend == Backend::Cuda) f.host_origin = ui::kDensityWindowOnHost;
  }
  if (simulation_->user_step()) f.host_origin = ui::kUserStateOnHost;
  // Your step kernel's difference from the built-in in place of the state (Your kernel > Show the difference).
  if (simulation_->showing_difference() && simulation_->difference_picture()) {
    f.output = simulation_->difference_picture().get();
    f.output_device = {};
    f.output_generation = simulation_->difference_generation();
    f.host_origin = ui::kDifferenceOnHost;
  }
  // No input: the grid is what is shown and fitted (a random or pattern grid has nothing to compare with).
  return f;
}

void Session::run_simulation_now() {
  request_run();  // the current request, if it changed
  wait_idle();
  if (const auto& e = simulation_->error()) throw *e;
}

void Session::sync_simulation_launch_info() {
  launch_info_ = {};
  const auto& report = simulation_->report();
  if (report && report->occupancy)
    launch_info_.occupancy = report->occupancy;
  else
    launch_info_.problem = report ? fmt::format("no occupancy report for the {} variant", report->variant)
                                  : std::string("measured when the simulation starts");
}

}  // namespace ks::app
