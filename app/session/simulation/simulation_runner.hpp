#pragma once
// A live simulation in the app (heat, Game of Life, Gray-Scott): play / pause, single steps, steps per frame,
// reset, a brush, exports, and the per-step timing the Timing panel shows. Qt-free and GL-free; the Session owns
// one and routes to it while a kernel of category `simulation` is selected.
//
// Threads: the ks::Simulation is driven only by jobs on the session's worker thread, one job at a time, each
// a short slice (at most about kSliceMs of steps, at least one step), so the GUI thread never waits and a paint
// stroke or a pause takes effect within a slice. Results come back through the worker's posted closures, run by
// Session::poll() on the GUI thread, like every other result; the runner's own state needs no lock.
//
// Display: on the CPU backend each frame is a host copy of the state; on the CUDA backend it is the state on the
// device (Simulation::device_image), which the viewport shows through CUDA-GL interop. That buffer is valid only
// until the next step, so the next step starts only once the viewport has put the frame on screen
// (note_displayed), or after kUnwatchedFrameS when nothing draws (a minimised window).
#include <chrono>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/device_image_ref.hpp"
#include "core/error.hpp"
#include "core/image.hpp"
#include "core/timing.hpp"
#include "io/gif_writer.hpp"
#include "session/simulation/simulation_picture.hpp"
#include "session/simulation/simulation_setup.hpp"
#include "session/simulation/user_step_backend.hpp"
#include "sim/sim_backend.hpp"
#include "sim/simulation.hpp"
#include "session/worker.hpp"

namespace ks {
class Engine;
}

namespace ks::app {

// What the viewport shows of the simulation.
struct SimulationFrame {
  std::shared_ptr<const Image> host;  // CPU backend, and frames written by an export
  DeviceImageRef device;              // CUDA backend: the state on the GPU, for interop
  std::uint64_t generation = 0;       // the session's output generation of this frame
  // A world shown through its density view (shown_by_density): `host` is this window of it, f32, each pixel 255
  // times the fraction of live cells in its square (so a single cell is 0 or 255, as a byte grid's cells are).
  std::optional<sim::DensityWindow> window;
  int world_width = 0, world_height = 0;  // the grid's size (the frame's, unless it is a window)
  ImageShape shape() const { return device ? device.shape : host ? host->shape() : ImageShape{}; }
  explicit operator bool() const noexcept { return host || device; }
};

// The Timing panel's figures for the steps run lately.
struct SimulationTiming {
  std::deque<double> recent_ms;       // per step, the last kRecentSteps, oldest first
  TimingStats stats;                  // over recent_ms
  double steps_per_second = 0;        // 1000 / median step time: what the kernel alone could do
  double gbps = 0;                    // bytes per step (report) / median step time
  double percent_of_copy = 0;         // of the measured device copy bandwidth; 0 on the CPU backend
  double live_steps_per_second = 0;   // generations shown per second of wall time lately (steps + display)
  double display_ms = -1;             // putting the last frame on screen; negative until drawn
};

// Whether a world is shown through its density view (a window of population per pixel at the view's zoom)
// instead of cell by cell: Life worlds of more than 2^30 cells, which no byte image holds (the packed variants run
// them up to 65536 x 65536). Smaller worlds are shown whole, as before.
bool shown_by_density(const std::string& kernel, int width, int height);

class SimulationRunner {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::size_t kRecentSteps = 200;
  static constexpr double kSliceMs = 30;          // a playing job's time budget
  static constexpr double kUnwatchedFrameS = 0.25;  // CUDA frames nobody draws stop holding the next step this long
  static constexpr int kMaxStepsPerFrame = 100000;

  struct Hooks {
    std::function<std::uint64_t()> next_frame_generation;  // a fresh output generation for each frame
    std::function<void()> grid_changed;                    // a grid of another shape: the viewport refits
    std::function<void(bool error, std::string text)> notify;
    // Whether the app's process may use its GPU (Session::Options::use_cuda and a device): a step kernel of the
    // user's then reports against the GPU's copy bandwidth and peaks; else against the CPU's, and the app's
    // process never touches CUDA (the kernel itself runs in the worker either way).
    bool app_uses_cuda = false;
  };

  struct Brush {
    bool enabled = false;  // left drag on the viewport paints (instead of panning)
    int radius = 3;        // cells
    double value = 1;      // life 1 alive / 0 dead; heat the temperature; grayscott v in 0..0.5
  };

  SimulationRunner(Engine& engine, Worker& worker, Hooks hooks);
  ~SimulationRunner();
  SimulationRunner(const SimulationRunner&) = delete;
  SimulationRunner& operator=(const SimulationRunner&) = delete;

  // ---- the session's side ----
  // What the session's request became (kernel, parameters, backend, variant, block, loaded image); the runner
  // keeps its own start, pattern and grid size. Takes effect at the next tick (classify_change): new parameters
  // go to the running simulation (Simulation::set_params: state and generation stay), another backend, variant
  // or block makes a new simulation from the current state, and the rest a fresh start.
  void configure(const std::string& kernel, const ParamSet& params, Backend backend, const std::string& variant,
                 const std::optional<BlockShape>& block, std::shared_ptr<const Image> image);
  void deactivate();  // a stencil kernel was selected: the simulation and its frame go
  bool active() const noexcept { return active_; }
  // GUI thread, once per frame (Session::poll): starts the next job when none runs.
  void tick();
  // While held, playing starts no steps (queued steps, paints and restarts still run): Session::wait_idle.
  void hold_playback(bool hold) noexcept { hold_ = hold; }
  // Nothing queued and no job of the runner's running (playing aside).
  bool settled() const noexcept;
  void note_displayed(std::uint64_t frame_generation, double ms);

  // ---- controls ----
  void set_playing(bool on);
  bool playing() const noexcept { return playing_; }
  void step(long long n = 1);  // queued; runs in slices, showing frames on the way. Usage Error for n < 1
  void reset();                // back to the start (a new simulation from it), generation 0
  // Steps per frame of the simulation chosen; each simulation keeps its own (default_steps_per_frame at first).
  void set_steps_per_frame(int n);  // 1 .. kMaxStepsPerFrame, usage Error otherwise
  // The Timing section's Counters switch (Session::set_counters). On: once per simulation and parameters, a job
  // reads the hardware counters of one more step's launch (Simulation::read_counters: the state and the
  // generation stay), and report() carries them, or on the CPU backend why there are none. Off: report() has
  // neither.
  void set_counters(bool on);
  bool counters() const noexcept { return counters_; }
  // Which counters (Session::set_counter_set): read again for the running simulation.
  void set_counter_set(CounterSet set);
  int steps_per_frame() const noexcept { return steps_per_frame_; }

  const SimulationSetup& setup() const noexcept { return desired_; }
  // Usage Errors: an image start without an image, a pattern for a kernel other than life, a grid out of range.
  void set_start(SimStart start);
  void set_pattern(std::shared_ptr<const sim::LifePattern> pattern);  // and SimStart::Pattern
  void set_grid_size(int width, int height);
  std::string start_description() const { return describe_start(desired_); }

  const Brush& brush() const noexcept { return brush_; }
  // Checks the value against the kernel (life 0 or 1, grayscott 0..0.5, finite) and the radius (0..1024).
  void set_brush(const Brush& brush);
  // A stroke from one cell position to another (image coordinates, cells): discs along the segment, applied by
  // the next job. Positions outside the grid paint the part of the disc inside it.
  void paint_line(double x0, double y0, double x1, double y1);

  // ---- a world shown through its density view (shown_by_density) ----
  // The window the viewport shows (ui/render/world_window.hpp), asked each frame: when it differs from the frame's,
  // the next job reads that window of the state where it is (never the whole world) and shows it. Until the
  // viewport asks, frames show the whole world at most kOverviewSide pixels a side.
  static constexpr int kOverviewSide = 1024;
  void set_view_window(const sim::DensityWindow& window);
  // The running simulation is shown through its density view.
  bool density_shown() const noexcept { return frame_.window.has_value(); }
  // For a grid shown through its density view: what it takes of memory (Simulation::memory_needed, as the CLI
  // prints it before it starts), or why the variant cannot hold it (refused); an empty text for a smaller grid.
  struct MemoryEstimate {
    std::string text;
    bool refused = false;
  };
  MemoryEstimate memory_estimate() const;

  // ---- what the panels show ----
  const SimulationFrame& frame() const noexcept { return frame_; }
  bool has_frame() const noexcept { return bool(frame_); }
  long long generation() const noexcept { return generation_; }
  const SimulationStats& stats() const noexcept { return stats_; }
  const std::optional<SimulationReport>& report() const noexcept { return report_; }  // variant, device, bytes
  const SimulationTiming& timing() const noexcept { return timing_; }
  // Changes whenever report() or timing() may have: a (re)start, new parameters, steps, counters read (the Why
  // section recomputes its explanation only then).
  std::uint64_t revision() const noexcept { return revision_; }
  const std::optional<Error>& error() const noexcept { return error_; }  // the last refused (re)start
  bool busy() const noexcept { return in_flight_; }
  // Steps, strokes or an export asked for and not started yet, or an export under way (it may run as several
  // jobs): Session::busy() counts them, so that a script waits for an export a button queued.
  bool work_queued() const noexcept { return !actions_.empty() || exporting_; }
  // All that was asked is done and only playing keeps the worker going (scripts wait for this, not for idle).
  bool only_playing() const noexcept;
  // True when the state shown came from carrying another simulation's state over (a backend, variant or block
  // change); Gray-Scott then restarted u as 1 - 2 v (the API carries one field). A parameter change keeps the
  // simulation itself and leaves this as it was.
  bool carried_over() const noexcept { return carried_; }

  // The colormap and range the viewport should start a fresh simulation with; picture_generation() changes with
  // each fresh start. The panels report what the view uses (set_picture), and exports use that.
  const SimPicture& suggested_picture() const noexcept { return suggested_; }
  std::uint64_t picture_generation() const noexcept { return picture_generation_; }
  void set_picture(const SimPicture& picture);  // simulation_runner_user.cpp (the difference follows it)
  const SimPicture& picture() const noexcept { return picture_; }

  // ---- exports ----
  // The current state as the view shows it (RGB PNG through the picture's colormap) with a JSON sidecar
  // (kernelscope.sim/1 report, generation, picture), atomically. Waits for a running slice; usage Error while a
  // frame sequence is being written or before there is a simulation.
  void export_frame(const std::filesystem::path& path);
  // The next n steps as dir/frame_00000.png ... frame_{n-1} (each after one more step), on the worker with
  // progress; cancel with Session::cancel (files written so far stay complete). Usage Error for n < 1.
  void export_sequence(const std::filesystem::path& dir, long long n);
  // An animated GIF of n frames: the state shown, then one every `every` steps, through the picture's colormap
  // and range, delay_cs hundredths of a second each, looping. On the worker with progress; the file appears
  // only when all n frames are written (a cancel or an error leaves none, and an existing file as it was).
  // Usage Error for n < 1, every < 1, a delay outside 1..65535, a build without giflib, or while exporting.
  void export_animation(const std::filesystem::path& gif, long long n, long long every, int delay_cs);
  bool exporting() const noexcept { return exporting_; }
  // Which export runs: the panel shows its progress beside the button that started it.
  bool exporting_animation() const noexcept { return exporting_ && exporting_animation_; }

  // ---- your own step kernel (simulation_runner_user.cpp) ----
  // Steps with a user's `step` kernel (the editor's Run) instead of the built-in's variant, or (null) goes back to
  // the built-in; either way the state on screen carries on (SimChange::KeepState), and Reset returns to the
  // built-in's start. A new kernel restarts playing when the last one stopped on an error (a fault). The kernel's
  // element type must fit the simulation (Session::use_user_step_kernel chooses it); choosing another simulation
  // ends it. Each (re)start with it queues a check of one step.
  static constexpr long long kMaxCheckSteps = 10000;
  void set_user_step(std::shared_ptr<const UserStepChoice> choice);
  const std::shared_ptr<const UserStepChoice>& user_step() const noexcept { return desired_.user; }
  // A declared parameter's new value, checked against its range (never clamped): a usage Error otherwise.
  void set_user_param(std::size_t index, double value);
  // Queues a check (UserStepBackend::check): `steps` steps of the user's kernel and of the built-in on the CPU
  // from the state shown, compared; the state does not move. Usage Error without a user kernel or for a count
  // outside 1 .. kMaxCheckSteps.
  void check_user_steps(long long steps);
  const std::optional<UserStepCheck>& user_check() const noexcept { return user_check_; }
  // Whether a user step kernel's GPU work was ever cut off (a fault, or its worker stopped mid-launch).
  bool user_gpu_work_cut_off() const noexcept { return user_worker_ && user_worker_->gpu_work_cut_off() > 0; }
  const usercode::Tolerance& user_tolerance() const noexcept { return user_tolerance_; }
  // Checked (finite, >= 0; a usage Error otherwise); the last check runs again under it.
  void set_user_tolerance(const usercode::Tolerance& tolerance);
  // |yours - reference| of the last check as a heatmap in the picture's units (so the view's range shows it as
  // it is), in place of the state while showing_difference(); null before a check.
  void set_show_difference(bool on);
  bool showing_difference() const noexcept { return show_difference_ && user_difference_; }
  const std::shared_ptr<const Image>& difference_picture() const noexcept { return user_difference_picture_; }
  std::uint64_t difference_generation() const noexcept { return user_difference_generation_; }

  struct Capture;  // what a job hands back to the GUI thread (internal)
  // Frames of the last sequence or animation written so far (for tests and the status line).
  long long frames_written() const noexcept { return frames_written_; }

 private:
  static constexpr const char* kJobKind = "simulation";  // the worker's kind of every job of the runner
  struct Action {
    enum class Kind { Step, Sequence, Animation, Check } kind = Kind::Step;
    long long count = 0;
    std::filesystem::path dir;  // the folder of a sequence, the file of an animation
    SimPicture picture;
    long long every = 1;  // an animation's steps between frames
    int delay_cs = kDefaultGifDelayCs;  // an animation's hundredths of a second per frame
  };
  bool frame_pending_display() const;
  void submit_create(bool fresh);
  void submit_params();
  void submit_slice(long long steps, bool bounded);
  void submit_paint();
  void submit_counters();
  void submit_view();
  // The switch is on and the simulation running has not had its counters read (Session::wait_idle waits for them).
  bool counters_due() const noexcept { return counters_ && sim_ && counters_read_ != setup_revision_; }
  // A density-shown world whose frame is not the window the viewport asks for.
  bool view_due() const noexcept;
  void submit_export(const Action& action);  // a sequence or an animation
  void submit_user_check(long long steps);   // simulation_runner_user.cpp
  void apply_user_restart(UserStepBackend* backend);  // simulation_runner_user.cpp: a (re)start's backend
  void drop_user_step();
  void refresh_difference_picture();
  void queue_export(Action action);
  void apply_capture(std::uint64_t ticket, Capture capture);
  // `body` with its ks::Error (or any exception) posted to fail(): every job ends in exactly one final post.
  Worker::Body guarded(std::uint64_t ticket, std::string what, Worker::Body body);
  void fail(std::uint64_t ticket, const Error& e);
  void add_step_times(const std::vector<double>& ms);
  void update_live_rate();
  void wait_for_worker();

  Engine& engine_;
  Worker& worker_;
  Hooks hooks_;

  bool active_ = false;
  SimulationSetup desired_;
  std::optional<SimulationSetup> applied_;  // what was last asked of sim_ (it may have failed); empty: nothing yet
  std::optional<SimulationSetup> running_;  // what sim_ runs: what the last (re)start or parameter change made
  bool reset_requested_ = false;
  std::shared_ptr<Simulation> sim_;  // touched only by worker jobs while one runs
  bool carried_ = false;
  long long generation_offset_ = 0;  // generations of the simulations this one carried on from

  bool playing_ = false;
  bool hold_ = false;
  // The Timing section's Counters switch: the hardware counters of one step's launch are read once per
  // simulation and parameters (counters_read_ says for which revision of the running setup), not per step.
  bool counters_ = false;
  CounterSet counter_set_ = CounterSet::All;
  std::uint64_t setup_revision_ = 0;  // a (re)start or a parameter change applied
  std::optional<std::uint64_t> counters_read_;
  std::uint64_t revision_ = 0;        // revision()
  int steps_per_frame_ = 1;
  std::map<std::string, int> steps_per_frame_by_kernel_;  // of the simulations chosen before, by kernel id
  std::deque<Action> actions_;
  std::vector<sim::Brush> strokes_;
  Brush brush_;

  bool in_flight_ = false;
  bool play_slice_in_flight_ = false;  // the job running is a playing slice, not something asked for
  std::uint64_t ticket_ = 0;
  bool exporting_ = false;
  bool exporting_animation_ = false;  // of the export running: a GIF rather than a folder of frames
  long long frames_written_ = 0;

  SimulationFrame frame_;
  std::optional<sim::DensityWindow> view_window_;
  ImageShape grid_shape_;
  Clock::time_point frame_published_{};
  std::uint64_t displayed_generation_ = 0;
  long long generation_ = 0;
  SimulationStats stats_;
  std::optional<SimulationReport> report_;
  SimulationTiming timing_;
  std::deque<std::pair<Clock::time_point, long long>> shown_;  // (when, generation) of recent frames
  std::optional<Error> error_;

  SimPicture suggested_, picture_;
  std::uint64_t picture_generation_ = 0;

  // Your own step kernel: its worker process (made on first use), the backend of sim_ when it runs one (owned by
  // sim_: valid while sim_ is; jobs hold both), the last check and its difference.
  std::shared_ptr<usercode::WorkerClient> user_worker_;
  UserStepBackend* user_backend_ = nullptr;
  std::optional<UserStepCheck> user_check_;
  usercode::Tolerance user_tolerance_;
  bool user_tolerance_set_ = false;  // by the user: kept across kernels; else the element type's default
  std::shared_ptr<const Image> user_difference_;  // |yours - reference| per cell, f32
  std::shared_ptr<const Image> user_difference_picture_;
  SimPicture user_difference_range_;  // the picture the heatmap was made for
  std::uint64_t user_difference_generation_ = 0;  // its output generation (Hooks::next_frame_generation)
  bool show_difference_ = false;
};

}  // namespace ks::app
