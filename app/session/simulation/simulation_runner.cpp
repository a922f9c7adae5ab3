#include "session/counters_handover.hpp"
#include "session/simulation/simulation_runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "report/sim_frames.hpp"
#include "report/sim_report.hpp"
#include "core/error.hpp"
#include "engine/engine.hpp"
#include "io/atomic_file.hpp"
#include "io/gif_writer.hpp"
#include "io/image_io.hpp"
#include "session/display_frame.hpp"
#include "session/exports.hpp"
#include "session/worker.hpp"
#include "sim/sim_memory.hpp"

namespace ks::app {

namespace {

constexpr int kMaxBrushRadius = 1024;
constexpr double kSequenceFramesShownPerS = 30;  // an export shows its frames at most this often

// Steps per frame a simulation starts with, so that each shows change at a watchable pace: Life a generation per
// frame; heat and Gray-Scott change little per step (Gray-Scott's spots take thousands of steps to form).
int default_steps_per_frame(const std::string& kernel) {
  if (kernel == "grayscott") return 16;
  if (kernel == "heat") return 4;
  return 1;
}

SimulationRunner::Brush default_brush(const std::string& kernel, const ParamSet& params, bool enabled) {
  SimulationRunner::Brush b;
  b.enabled = enabled;
  if (kernel == "life") {
    b.radius = 2, b.value = 1;
  } else if (kernel == "heat") {
    b.radius = 8, b.value = params.get_float("spot_value");
  } else {
    b.radius = 6, b.value = 0.25;
  }
  return b;
}

}  // namespace

// What a job hands back to the GUI thread.
struct SimulationRunner::Capture {
  std::shared_ptr<Simulation> sim;  // set by a (re)start
  bool fresh = false;               // the (re)start began from the setup's start, not the running state
  bool params_applied = false;      // the running simulation took the setup's parameters
  std::optional<SimulationSetup> runs;  // what the simulation runs now, after a (re)start or parameter change
  long long carried_generations = 0;
  std::optional<SimulationReport> report;
  std::optional<SimPicture> picture;
  std::shared_ptr<const Image> host;
  DeviceImageRef device;
  std::optional<sim::DensityWindow> window;  // `host` is this window of a world shown through its density view
  int world_width = 0, world_height = 0;     // the grid's size, with host or device
  std::string note;                          // said to the user when applied (an Info notice)
  SimulationStats stats;
  std::vector<double> step_ms;
  long long steps_done = 0;
  bool from_action = false;  // the steps count against the queued Step action
  bool counters_read = false;  // the report carries the counters just read (submit_counters)
  bool cancelled = false;
  long long frames_written = -1;  // a sequence export: files complete so far
  bool last = true;               // the job's final post: the next job may start
  // Your own step kernel (simulation_runner_user.cpp): the backend a (re)start made (owned by sim).
  UserStepBackend* user_backend = nullptr;
};

bool shown_by_density(const std::string& kernel, int width, int height) {
  return kernel == "life" && 1LL * width * height > sim::kMaxByteGridCells;
}

namespace {

bool same_window(const sim::DensityWindow& a, const sim::DensityWindow& b) {
  return a.x0 == b.x0 && a.y0 == b.y0 && a.cells_per_pixel == b.cells_per_pixel && a.width == b.width &&
         a.height == b.height;
}

// The whole world, at most kOverviewSide pixels a side: what a density-shown world looks like before the viewport
// asks for its window.
sim::DensityWindow overview_window(int width, int height) {
  const int side = SimulationRunner::kOverviewSide;
  const int cells = std::max(1, (std::max(width, height) + side - 1) / side);
  return {0, 0, cells, (width + cells - 1) / cells, (height + cells - 1) / cells};
}

bool density_shown(const Simulation& sim) { return shown_by_density(sim.kernel(), sim.width(), sim.height()); }

// The state as the viewport takes it, with the statistics and the step times since the last capture: a world shown
// through its density view as the window `view` asks for (the overview without one), read where the state is.
void capture_state(Simulation& sim, SimulationRunner::Capture& c, const std::optional<sim::DensityWindow>& view) {
  if (density_shown(sim)) {
    c.window = view ? *view : overview_window(sim.width(), sim.height());
    Image density = sim.density_view(*c.window);
    // Population per pixel on Life's own scale: a lone cell reads 255 like a live cell of a byte grid, so the
    // colormap, its range and the inspector mean the same at every zoom.
    for (float& v : density.elements<float>()) v *= 255.0f;
    c.host = std::make_shared<const Image>(std::move(density));
  } else if (sim.frames_on_device()) {
    c.device = sim.device_image();
  } else {
    c.host = std::make_shared<const Image>(sim.image());
  }
  c.world_width = sim.width();
  c.world_height = sim.height();
  c.stats = sim.stats();
  c.step_ms = sim.step_ms();
  sim.clear_timings();  // the runner keeps the recent ones; the simulation's own list would only grow
}

// A (re)start under `setup`: from the state of `old` (carried over as an image), or from the setup's start
// when there is none.
SimulationRunner::Capture start_simulation(Engine& engine, const SimulationSetup& setup,
                                           std::shared_ptr<Simulation> old,
                                           const std::shared_ptr<usercode::WorkerClient>& user_worker, bool app_gpu,
                                           const std::optional<sim::DensityWindow>& view) {
  SimulationRunner::Capture c;
  if (old && density_shown(*old)) {
    // Carrying over goes through an image of the state, which a world past 2^30 cells cannot be.
    c.note = fmt::format("the {}x{} world starts afresh: a world of more than 2^30 cells does not carry its state "
                         "over to another backend, variant or block",
                         old->width(), old->height());
    old = nullptr;
  }
  c.fresh = !old;
  // The API starts a simulation from an image: the current state of the running one carries it over.
  SimulationStart start = old ? SimulationStart{.image = old->image()} : start_of(setup);
  c.carried_generations = old ? old->generation() : 0;
  SimulationRequest request = request_of(setup);
  if (setup.user) attach_user_step(request, engine, app_gpu, setup, user_worker, &c.user_backend);
  c.sim = std::make_shared<Simulation>(engine, std::move(request), std::move(start));
  // Life's picture does not depend on its state, and a density-shown world has no image to read it from.
  if (c.fresh) c.picture = app::suggested_picture(setup.kernel, density_shown(*c.sim) ? Image() : c.sim->image(),
                                                  setup.params);
  c.report = c.sim->report();
  c.runs = setup;
  capture_state(*c.sim, c, view);
  return c;
}

}  // namespace

SimulationRunner::SimulationRunner(Engine& engine, Worker& worker, Hooks hooks)
    : engine_(engine), worker_(worker), hooks_(std::move(hooks)) {}

SimulationRunner::~SimulationRunner() = default;

// ---- the session's side ----

void SimulationRunner::configure(const std::string& kernel, const ParamSet& params, Backend backend,
                                 const std::string& variant, const std::optional<BlockShape>& block,
                                 std::shared_ptr<const Image> image) {
  const bool kernel_changed = !active_ || desired_.kernel != kernel;
  if (kernel_changed) {
    // Each simulation keeps its own steps per frame: Gray-Scott's 1000 would run Heat 30 000 steps a second.
    if (active_) steps_per_frame_by_kernel_[desired_.kernel] = steps_per_frame_;
    const auto kept = steps_per_frame_by_kernel_.find(kernel);
    steps_per_frame_ = kept != steps_per_frame_by_kernel_.end() ? kept->second : default_steps_per_frame(kernel);
    // A simulation chosen is one to watch: it starts playing (Pause stops it).
    playing_ = true;
  }
  active_ = true;
  desired_.kernel = kernel;
  desired_.params = params;
  desired_.backend = backend;
  desired_.variant = variant;
  desired_.block = block;
  desired_.image = std::move(image);
  if (kernel_changed) {
    drop_user_step();  // it fitted the simulation chosen before
    if (desired_.start == SimStart::Pattern && kernel != "life") desired_.start = SimStart::Parameters;
    if (desired_.start == SimStart::Image && !desired_.image) desired_.start = SimStart::Parameters;
    brush_ = default_brush(kernel, params, brush_.enabled);
  }
}

void SimulationRunner::deactivate() {
  if (!active_) return;
  active_ = false;
  steps_per_frame_by_kernel_[desired_.kernel] = steps_per_frame_;
  drop_user_step();
  ++ticket_;  // results of a job still running are dropped
  sim_.reset();
  user_backend_ = nullptr;
  applied_.reset();
  running_.reset();
  actions_.clear();
  strokes_.clear();
  frame_ = {};
  grid_shape_ = {};
  error_.reset();
  report_.reset();
  timing_ = {};
  generation_ = 0;
  counters_read_.reset();
  ++revision_;
}

bool SimulationRunner::settled() const noexcept {
  if (!active_) return !in_flight_;
  const bool asked = applied_ && classify_change(*applied_, desired_) == SimChange::None;
  return !in_flight_ && !reset_requested_ && asked && strokes_.empty() && actions_.empty() && !counters_due() &&
         !view_due();
}

bool SimulationRunner::only_playing() const noexcept {
  if (!active_ || !playing_) return false;
  const bool asked = applied_ && classify_change(*applied_, desired_) == SimChange::None;
  return asked && !reset_requested_ && strokes_.empty() && actions_.empty() && !counters_due() && !view_due() &&
         (!in_flight_ || play_slice_in_flight_);
}

bool SimulationRunner::frame_pending_display() const {
  if (!frame_.device || displayed_generation_ == frame_.generation) return false;
  return std::chrono::duration<double>(Clock::now() - frame_published_).count() < kUnwatchedFrameS;
}

void SimulationRunner::tick() {
  if (!active_ || in_flight_) return;
  const SimChange asked = applied_ ? classify_change(*applied_, desired_) : SimChange::FreshStart;
  if (reset_requested_ || asked != SimChange::None) {
    // How to get there is measured from what the simulation runs: a request it refused never ran.
    const SimChange how = sim_ && running_ ? classify_change(*running_, desired_) : SimChange::FreshStart;
    const bool reset = std::exchange(reset_requested_, false);
    if (reset || how == SimChange::FreshStart) return submit_create(true);
    if (how == SimChange::KeepState) return submit_create(false);
    return submit_params();  // Params; or None: back to what runs after a refused request, which clears its error
  }
  // The frame on screen may be the state buffer itself (CUDA): nothing changes it before it was drawn.
  if (!sim_ || frame_pending_display()) return;
  if (counters_due()) return submit_counters();
  if (!strokes_.empty()) return submit_paint();
  if (view_due()) return submit_view();  // panned or zoomed: the window now shown, before more steps
  if (!actions_.empty()) {
    const Action a = actions_.front();
    if (a.kind != Action::Kind::Step) {
      actions_.pop_front();
      return a.kind == Action::Kind::Check ? submit_user_check(a.count) : submit_export(a);
    }
    return submit_slice(a.count, true);
  }
  if (playing_ && !hold_) {
    submit_slice(steps_per_frame_, false);
    play_slice_in_flight_ = true;
  }
}

void SimulationRunner::note_displayed(std::uint64_t frame_generation, double ms) {
  if (frame_generation != frame_.generation) return;
  displayed_generation_ = frame_generation;
  timing_.display_ms = ms;
}

// ---- controls ----

void SimulationRunner::set_playing(bool on) { playing_ = on; }

void SimulationRunner::set_counter_set(CounterSet set) {
  if (set == counter_set_) return;
  counter_set_ = set;
  counters_read_.reset();  // the next frame reads them again, in this set
}

void SimulationRunner::set_counters(bool on) {
  if (on == counters_) return;
  counters_ = on;
  counters_read_.reset();  // on: read them for what runs now; off: the report shows none
  if (report_ && !on) {
    report_->counters.reset();
    report_->counters_unavailable.clear();
  }
  ++revision_;
}

void SimulationRunner::step(long long n) {
  if (n < 1) throw_usage(fmt::format("cannot run {} steps", n), "give a number of steps >= 1");
  if (!actions_.empty() && actions_.back().kind == Action::Kind::Step)
    actions_.back().count += n;
  else
    actions_.push_back({Action::Kind::Step, n, {}, {}});
}

void SimulationRunner::reset() {
  actions_.clear();
  strokes_.clear();
  reset_requested_ = true;
}

void SimulationRunner::set_steps_per_frame(int n) {
  if (n < 1 || n > kMaxStepsPerFrame)
    throw_usage(fmt::format("{} steps per frame is out of range", n), fmt::format("use 1 .. {}", kMaxStepsPerFrame));
  steps_per_frame_ = n;
}

void SimulationRunner::set_start(SimStart start) {
  if (start == SimStart::Image && !desired_.image)
    throw_usage("no image is loaded to start from", "open an image first (File > Open image)");
  if (start == SimStart::Pattern) {
    if (desired_.kernel != "life")
      throw_usage(fmt::format("patterns are Life patterns; '{}' starts from an image or its parameters",
                              desired_.kernel));
    if (!desired_.pattern) throw_usage("no pattern is chosen", "pick a built-in pattern or open an RLE file");
  }
  desired_.start = start;
}

void SimulationRunner::set_pattern(std::shared_ptr<const sim::LifePattern> pattern) {
  if (!pattern) throw Error(ErrorKind::Internal, "set_pattern without a pattern");
  if (desired_.kernel != "life")
    throw_usage(fmt::format("patterns are Life patterns, and the kernel is '{}'", desired_.kernel),
                "select the life kernel first");
  desired_.pattern = std::move(pattern);
  desired_.start = SimStart::Pattern;
}

void SimulationRunner::set_grid_size(int width, int height) {
  // The side is every variant's limit; how many cells in all a variant holds (2^30 a byte or a float per cell,
  // 65536^2 packed Life) the simulation checks when it starts, naming the variants that can.
  if (width < 1 || height < 1 || width > sim::kMaxGridSide || height > sim::kMaxGridSide)
    throw_usage(fmt::format("a grid of {}x{} cells is out of range", width, height),
                fmt::format("use 1 .. {} cells per side", sim::kMaxGridSide));
  desired_.width = width;
  desired_.height = height;
}

void SimulationRunner::set_view_window(const sim::DensityWindow& window) {
  sim::check_density_window(window);
  view_window_ = window;
}

bool SimulationRunner::view_due() const noexcept {
  return sim_ && frame_.window && view_window_ && !same_window(*frame_.window, *view_window_);
}

SimulationRunner::MemoryEstimate SimulationRunner::memory_estimate() const {
  if (!active_ || !shown_by_density(desired_.kernel, desired_.width, desired_.height)) return {};
  try {
    return {sim::memory_text(Simulation::memory_needed(request_of(desired_))), false};
  } catch (const Error& e) {
    return {e.full_message(), true};
  }
}

void SimulationRunner::set_brush(const Brush& b) {
  if (b.radius < 0 || b.radius > kMaxBrushRadius)
    throw_usage(fmt::format("brush radius {} is out of range", b.radius), fmt::format("use 0 .. {}", kMaxBrushRadius));
  if (!std::isfinite(b.value)) throw_usage("the brush value is not a number");
  if (desired_.kernel == "life" && b.value != 0 && b.value != 1)
    throw_usage(fmt::format("life: brush value {} is neither 1 (alive) nor 0 (dead)", b.value));
  if (desired_.kernel == "grayscott" && (b.value < 0 || b.value > 0.5))
    throw_usage(fmt::format("grayscott: brush value {} is out of range", b.value),
                "give the concentration of v, 0 .. 0.5");
  brush_ = b;
}

void SimulationRunner::paint_line(double x0, double y0, double x1, double y1) {
  if (!active_) return;
  // Discs half a radius apart (at least one cell) leave no gaps along a fast stroke.
  const double spacing = std::max(1.0, brush_.radius / 2.0);
  const double length = std::hypot(x1 - x0, y1 - y0);
  const int n = int(std::ceil(length / spacing));
  for (int i = 0; i <= n; ++i) {
    const double t = n ? double(i) / n : 0.0;
    const sim::Brush b{int(std::floor(x0 + t * (x1 - x0))), int(std::floor(y0 + t * (y1 - y0))), brush_.radius,
                       brush_.value};
    if (strokes_.empty() || strokes_.back().x != b.x || strokes_.back().y != b.y || strokes_.back().value != b.value)
      strokes_.push_back(b);
  }
}

// ---- jobs ----

void SimulationRunner::submit_create(bool fresh) {
  const std::uint64_t ticket = ++ticket_;
  in_flight_ = true;
  applied_ = desired_;  // also when it fails: the same request is not retried every frame
  std::shared_ptr<Simulation> old = fresh ? nullptr : sim_;
  // A world that takes its seconds to fill says so in the job box (its memory is in the Simulation section).
  const std::string label = shown_by_density(desired_.kernel, desired_.width, desired_.height)
                                ? fmt::format("Starting a {}x{} Life world", desired_.width, desired_.height)
                                : std::string();
  worker_.submit(
      kJobKind, label,
      guarded(ticket, "starting the simulation", [this, ticket, setup = desired_, old,
                                                  view = view_window_](Worker::Context& ctx) {
          Capture c = start_simulation(engine_, setup, old, user_worker_, hooks_.app_uses_cuda, view);
          ctx.post([this, ticket, c = std::move(c)]() mutable { apply_capture(ticket, std::move(c)); });
      }),
      /*replace_waiting=*/false);
}

void SimulationRunner::submit_params() {
  const std::uint64_t ticket = ++ticket_;
  in_flight_ = true;
  applied_ = desired_;  // also when refused: the same request is not retried every frame
  worker_.submit(
      kJobKind, "",
      guarded(ticket, "changing the parameters", [this, ticket, setup = desired_, sim = sim_,
                                                  view = view_window_](Worker::Context& ctx) {
          // A refused value throws here and changes nothing (the simulation runs on under its parameters).
          // A parameter of the initial state is not applied: it needs a fresh start, which classify_change
          // normally chooses itself; the simulation has the last word.
          if (!sim->set_params(setup.params).applied) {
            Capture c = start_simulation(engine_, setup, nullptr, user_worker_, hooks_.app_uses_cuda, view);
            ctx.post([this, ticket, c = std::move(c)]() mutable { apply_capture(ticket, std::move(c)); });
            return;
          }
          Capture c;
          c.params_applied = true;
          c.runs = setup;
          c.report = sim->report();
          capture_state(*sim, c, view);
          ctx.post([this, ticket, c = std::move(c)]() mutable { apply_capture(ticket, std::move(c)); });
      }),
      false);
}

void SimulationRunner::submit_slice(long long steps, bool from_action) {
  const std::uint64_t ticket = ++ticket_;
  in_flight_ = true;
  const double estimate_ms = timing_.stats.median_ms;
  // One step of a density-shown world may take seconds on the CPU: the job box shows it, with Cancel (which
  // stops after the step under way, and stops playing).
  const std::string label =
      frame_.window ? fmt::format("Stepping the {}x{} world", frame_.world_width, frame_.world_height) : std::string();
  worker_.submit(
      kJobKind, label,
      guarded(ticket, "a simulation step", [this, ticket, sim = sim_, user = user_backend_, steps, from_action,
                                            estimate_ms, view = view_window_,
                                            progress = !label.empty()](Worker::Context& ctx) {
          const UserCancelScope cancel(user, ctx);
          Capture c;
          c.from_action = from_action;
          // At least one step; more while the slice's time lasts, in chunks sized from the step time so that a
          // fast GPU runs many steps back to back and a slow CPU grid returns after one.
          Stopwatch watch;
          double per_step = estimate_ms;
          while (c.steps_done < steps && !ctx.cancelled()) {
            const double left = kSliceMs - watch.elapsed_ms();
            if (c.steps_done > 0 && left <= 0) break;
            long long chunk = 1;
            if (per_step > 0) chunk = std::clamp<long long>((long long)(left / per_step), 1, steps - c.steps_done);
            if (progress)
              ctx.set_progress(double(c.steps_done) / double(steps),
                               fmt::format("generation {}", sim->generation() + 1));
            sim->step(chunk);
            c.steps_done += chunk;
            per_step = watch.elapsed_ms() / double(c.steps_done);
          }
          c.cancelled = ctx.cancelled();
          capture_state(*sim, c, view);
          ctx.post([this, ticket, c = std::move(c)]() mutable { apply_capture(ticket, std::move(c)); });
      }),
      false);
}

void SimulationRunner::submit_paint() {
  const std::uint64_t ticket = ++ticket_;
  in_flight_ = true;
  worker_.submit(
      kJobKind, "",
      guarded(ticket, "painting", [this, ticket, sim = sim_, strokes = std::exchange(strokes_, {}),
                                   view = view_window_](Worker::Context& ctx) {
          for (const sim::Brush& b : strokes) sim->paint(b.x, b.y, b.radius, b.value);
          Capture c;
          capture_state(*sim, c, view);
          ctx.post([this, ticket, c = std::move(c)]() mutable { apply_capture(ticket, std::move(c)); });
      }),
      false);
}

void SimulationRunner::submit_counters() {
  const std::uint64_t ticket = ++ticket_;
  in_flight_ = true;
  counters_read_ = setup_revision_;  // also when it fails: not retried every frame
  worker_.submit(
      kJobKind, "",
      guarded(ticket, "reading the hardware counters", [this, ticket, sim = sim_, user = user_backend_,
                                                        set = counter_set_, view = view_window_](Worker::Context& ctx) {
          const UserCancelScope cancel(user, ctx);  // a step kernel of yours runs one more launch in the worker
          if (user) {
            user->set_counter_set(set);  // built-in steps read the engine's set (Session::set_counter_set)
            hand_counters_to_worker(engine_);
          }
          sim->read_counters();  // one more step's launch, not kept: the state and the generation stay
          Capture c;
          c.counters_read = true;
          c.report = sim->report();
          capture_state(*sim, c, view);
          ctx.post([this, ticket, c = std::move(c)]() mutable { apply_capture(ticket, std::move(c)); });
      }),
      false);
}

void SimulationRunner::submit_view() {
  const std::uint64_t ticket = ++ticket_;
  in_flight_ = true;
  worker_.submit(kJobKind, "",
                 guarded(ticket, "showing the world", [this, ticket, sim = sim_, view = view_window_](Worker::Context& ctx) {
                   Capture c;
                   capture_state(*sim, c, view);
                   ctx.post([this, ticket, c = std::move(c)]() mutable { apply_capture(ticket, std::move(c)); });
                 }),
                 false);
}

void SimulationRunner::submit_export(const Action& a) {
  const std::uint64_t ticket = ++ticket_;
  in_flight_ = true;
  exporting_ = true;
  frames_written_ = 0;
  const bool animation = a.kind == Action::Kind::Animation;
  exporting_animation_ = animation;
  const std::string label = animation ? fmt::format("Writing a {}-frame GIF to {}", a.count, a.dir.string())
                                      : fmt::format("Writing {} frames to {}", a.count, a.dir.string());
  worker_.submit(
      kJobKind, label,
      guarded(ticket, animation ? "writing the GIF" : "writing frames", [this, ticket, sim = sim_, user = user_backend_,
                                                                         a, animation](Worker::Context& ctx) {
          const UserCancelScope cancel(user, ctx);
          long long written = 0;
          // The GIF goes to a temporary file that becomes a.dir only when every frame is in it.
          std::optional<GifAnimation> gif;
          if (animation)
            gif.emplace(a.dir, sim->width(), sim->height(), report::colormap_palette(a.picture.colormap), a.delay_cs);
          else
            report::prepare_frames_folder(a.dir);
          Stopwatch since_shown;
          for (long long k = 0; k < a.count && !ctx.cancelled(); ++k) {
            // A sequence's frames follow one step each; an animation starts from the state shown.
            if (!animation) sim->step(1);
            else if (k > 0) sim->step(a.every);
            Image state = sim->image();
            if (gif)
              gif->add_frame(report::state_levels(state, a.picture.range_min, a.picture.range_max));
            else
              save_image(colorize(state, a.picture), report::frame_path(a.dir, k));  // atomic: complete or absent
            written = k + 1;
            ctx.set_progress(double(written) / double(a.count), fmt::format("frame {} of {}", written, a.count));
            if (since_shown.elapsed_ms() >= 1000.0 / kSequenceFramesShownPerS) {
              since_shown.restart();
              Capture c;
              c.last = false;
              c.host = std::make_shared<const Image>(std::move(state));
              c.world_width = sim->width();
              c.world_height = sim->height();
              c.stats = sim->stats();
              c.step_ms = sim->step_ms();
              sim->clear_timings();
              c.frames_written = written;
              ctx.post([this, ticket, c = std::move(c)]() mutable { apply_capture(ticket, std::move(c)); });
            }
          }
          Capture c;
          c.cancelled = written < a.count;
          if (gif && !c.cancelled) gif->finish();
          c.frames_written = written;
          capture_state(*sim, c, std::nullopt);  // (no export runs on a density-shown world)
          ctx.post([this, ticket, c = std::move(c), a, animation]() mutable {
            const long long n = c.frames_written;
            const bool cancelled = c.cancelled;
            apply_capture(ticket, std::move(c));
            exporting_ = false;
            std::string text;
            if (animation)
              text = cancelled ? fmt::format("GIF export cancelled after {} of {} frames; nothing written", n, a.count)
                               : fmt::format("wrote {} ({} frames, one every {} steps)", a.dir.string(), n, a.every);
            else
              text = cancelled ? fmt::format("export cancelled after {} of {} frames; the {} files in {} are complete",
                                             n, a.count, n, a.dir.string())
                               : fmt::format("wrote {} frames to {}", n, a.dir.string());
            hooks_.notify(false, text);
          });
      }),
      false);
}

// ---- results (GUI thread) ----

void SimulationRunner::apply_capture(std::uint64_t ticket, Capture c) {
  if (c.last) in_flight_ = play_slice_in_flight_ = false;
  if (ticket != ticket_ || !active_) return;  // the simulation was dropped meanwhile
  ++revision_;
  if (c.runs) running_ = std::move(c.runs);
  if (c.params_applied || c.sim) ++setup_revision_;  // counters read before are of another setup
  if (c.params_applied) {
    report_ = std::move(c.report);  // the parameters it shows; the step times go on (the step costs the same)
    error_.reset();
  }
  if (c.counters_read) report_ = std::move(c.report);
  if (c.sim) apply_user_restart(c.user_backend);
  if (c.sim) {
    generation_offset_ = c.fresh ? 0 : generation_offset_ + c.carried_generations;
    carried_ = !c.fresh;
    sim_ = std::move(c.sim);
    report_ = std::move(c.report);
    error_.reset();
    timing_ = {};
    shown_.clear();
    if (c.picture) {
      suggested_ = *c.picture;
      picture_ = suggested_;
      ++picture_generation_;
    }
  }
  // A simulation keeps the counters it last read: they are shown only while the switch is on and were read for
  // what runs now (a parameter change reads them again).
  if (report_ && (!counters_ || counters_read_ != setup_revision_)) {
    report_->counters.reset();
    report_->counters_unavailable.clear();
  }
  if (c.frames_written >= 0) frames_written_ = c.frames_written;
  if (c.from_action && !actions_.empty() && actions_.front().kind == Action::Kind::Step) {
    actions_.front().count -= c.steps_done;
    if (actions_.front().count <= 0 || c.cancelled) actions_.pop_front();
  }
  if (c.cancelled && !c.from_action && c.frames_written < 0) playing_ = false;  // Cancel stops playing too
  if (c.host || c.device) {
    frame_.host = std::move(c.host);
    frame_.device = std::move(c.device);
    frame_.window = c.window;
    frame_.world_width = c.world_width;
    frame_.world_height = c.world_height;
    frame_.generation = hooks_.next_frame_generation();
    frame_published_ = Clock::now();
    // The grid's size, not the frame's: a density-shown world's frame changes size with every zoom.
    if (c.world_width != grid_shape_.width || c.world_height != grid_shape_.height) {
      grid_shape_ = {c.world_width, c.world_height, 1, frame_.shape().type};
      hooks_.grid_changed();
    }
  }
  if (!c.note.empty()) hooks_.notify(false, c.note);
  stats_ = c.stats;
  generation_ = generation_offset_ + c.stats.generation;
  stats_.generation = generation_;
  add_step_times(c.step_ms);
  update_live_rate();
}

Worker::Body SimulationRunner::guarded(std::uint64_t ticket, std::string what, Worker::Body body) {
  return [this, ticket, what = std::move(what), body = std::move(body)](Worker::Context& ctx) {
    try {
      body(ctx);
    } catch (const Error& e) {
      ctx.post([this, ticket, e] { fail(ticket, e); });
    } catch (const std::exception& e) {
      const Error err(ErrorKind::Internal, what + " failed: " + e.what() + ". This is a bug of kernelscope");
      ctx.post([this, ticket, err] { fail(ticket, err); });
    }
  };
}

void SimulationRunner::fail(std::uint64_t ticket, const Error& e) {
  in_flight_ = play_slice_in_flight_ = false;
  exporting_ = false;  // a sequence that failed ends; its complete files stay
  if (ticket != ticket_ || !active_) return;
  error_ = e;
  playing_ = false;  // the state on screen stays; nothing runs until the request changes
  actions_.clear();
  hooks_.notify(true, "simulation: " + e.full_message());
}

void SimulationRunner::add_step_times(const std::vector<double>& ms) {
  if (ms.empty()) return;
  for (double t : ms) timing_.recent_ms.push_back(t);
  while (timing_.recent_ms.size() > kRecentSteps) timing_.recent_ms.pop_front();
  timing_.stats = TimingStats::of({timing_.recent_ms.begin(), timing_.recent_ms.end()});
  const double median = timing_.stats.median_ms;
  timing_.steps_per_second = median > 0 ? 1000.0 / median : 0;
  timing_.gbps = median > 0 && report_ ? double(report_->bytes_per_step) / (median * 1e6) : 0;
  timing_.percent_of_copy =
      report_ && report_->copy_bandwidth_gbps > 0 ? 100.0 * timing_.gbps / report_->copy_bandwidth_gbps : 0;
}

void SimulationRunner::update_live_rate() {
  const Clock::time_point now = Clock::now();
  shown_.emplace_back(now, generation_);
  while (shown_.size() > 2 && now - shown_.front().first > std::chrono::seconds(1)) shown_.pop_front();
  const double seconds = std::chrono::duration<double>(shown_.back().first - shown_.front().first).count();
  timing_.live_steps_per_second =
      seconds > 0.05 ? double(shown_.back().second - shown_.front().second) / seconds : timing_.live_steps_per_second;
}

// ---- exports ----

void SimulationRunner::wait_for_worker() { worker_.wait_idle(); }

void SimulationRunner::export_frame(const std::filesystem::path& path) {
  if (!active_ || !sim_) throw_usage("there is no simulation to export yet", "pick a simulation kernel first");
  if (exporting_) throw_usage("an export is running", "wait for it, or cancel it");
  // A slice that runs ends within kSliceMs (or one step); none starts while the GUI thread is here, so the
  // simulation is ours to read for the moment.
  wait_for_worker();
  // A density-shown world is exported as the view shows it: the window on screen, population per pixel.
  Image state = frame_.window && frame_.host ? *frame_.host : sim_->image();
  const Image picture = colorize(state, picture_);
  SimulationReport report = sim_->report();
  report.generation = generation_offset_ + sim_->generation();
  report.step_time = timing_.stats;
  report.steps_per_second = timing_.steps_per_second;
  report.gbps = timing_.gbps;
  report.percent_of_copy = timing_.percent_of_copy;
  SimulationStats stats = sim_->stats();
  stats.generation = report.generation;
  nlohmann::ordered_json sidecar = to_json(report, stats);
  sidecar["file"] = path.filename().string();
  sidecar["start"] = describe_start(applied_ ? *applied_ : desired_);
  if (frame_.window)
    sidecar["window"] = {{"x0", frame_.window->x0}, {"y0", frame_.window->y0},
                         {"cells_per_pixel", frame_.window->cells_per_pixel}, {"width", frame_.window->width},
                         {"height", frame_.window->height},
                         {"pixel", "255 x the fraction of live cells in its square of cells"}};
  sidecar["picture"] = {{"colormap", std::string(ui::colormap_name(picture_.colormap))},
                        {"range", {picture_.range_min, picture_.range_max}}};
  // The sidecar first: a failure never leaves a new image beside an old or missing sidecar.
  write_text_atomically(sidecar_path_for(path), sidecar.dump(2) + "\n");
  save_image(picture, path);
}

void SimulationRunner::export_sequence(const std::filesystem::path& dir, long long n) {
  if (n < 1) throw_usage(fmt::format("cannot write {} frames", n), "give a number of frames >= 1");
  queue_export({Action::Kind::Sequence, n, dir, picture_});
}

void SimulationRunner::export_animation(const std::filesystem::path& gif, long long n, long long every,
                                        int delay_cs) {
  if (n < 1) throw_usage(fmt::format("cannot write a GIF of {} frames", n), "give a number of frames >= 1");
  if (every < 1) throw_usage(fmt::format("cannot take a frame every {} steps", every), "give a number >= 1");
  if (delay_cs < 1 || delay_cs > 65535)
    throw_usage(fmt::format("a GIF frame delay of {} hundredths of a second is out of range (1..65535)", delay_cs));
  require_gif_support();
  queue_export({Action::Kind::Animation, n, gif, picture_, every, delay_cs});
}

void SimulationRunner::queue_export(Action action) {
  if (!active_ || !sim_) throw_usage("there is no simulation to export yet", "pick a simulation kernel first");
  const bool queued = std::any_of(actions_.begin(), actions_.end(), [](const Action& a) {
    return a.kind == Action::Kind::Sequence || a.kind == Action::Kind::Animation;
  });
  if (exporting_ || queued) throw_usage("an export is running already", "wait for it, or cancel it");
  if (frame_.window)
    throw_usage(fmt::format("the {}x{} world is shown through its density view, and a sequence of its frames would "
                            "read the whole world each step",
                            frame_.world_width, frame_.world_height),
                "export the window shown with Export frame, or run it from the CLI: kernelscope-cli sim life "
                "--size WxH --variant cpu_bitpacked --steps N");
  actions_.push_back(std::move(action));
}

}  // namespace ks::app
