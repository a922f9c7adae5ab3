#pragma once
// The app's document: which kernel is chosen with which parameters, backend, variant and block shape, and
// the documents that run each family of kernels — image stencils (StencilDocument), live simulations
// (SimulationRunner), the basics lab (LabDocument) and the Topology panel (TopologyDocument). The Qt window, the
// ImGui panels, the headless --screenshot path and the tests all drive the app through this class; it has no Qt
// and no GL.
//
// The Session keeps what the documents share: the worker they run on, the device, the notices, which family is
// active (the kernel's category), and the display frame assembled from the active document. The Kernel section's
// changes (select_kernel, set_param, set_backend, ...) go through the Session, which checks them and passes them
// to the active document; everything else of a document is reached through stencil(), simulation(), lab() and
// topology(). The stencil document's input, results and sweep have shorthands here (open_image, output,
// history, ...), as the tests and the window have always used them.
//
// Threads: every method is called from one thread (the GUI thread). Work that may take longer than a frame —
// loading, kernel runs, the CPU reference, the block sweep — runs on the session's worker thread, whose results
// reach the session only through poll(). So the GUI never waits, and the session's state needs no lock.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/device_image_ref.hpp"
#include "core/error.hpp"
#include "core/image.hpp"
#include "core/kernel_counters.hpp"
#include "core/launch_shape.hpp"
#include "engine/engine.hpp"
#include "io/image_io.hpp"
#include "registry/kernel_spec.hpp"
#include "registry/params.hpp"
#include "session/display_frame.hpp"
#include "session/exports.hpp"
#include "session/launch/launch_picture.hpp"
#include "session/lab/user_array_choice.hpp"
#include "session/stencil/user_stencil_choice.hpp"
#include "session/session_shared.hpp"
#include "session/simulation/simulation_runner.hpp"
#include "session/stencil/stencil_document.hpp"
#include "session/worker.hpp"

namespace ks::app {

class TopologyDocument;  // session/topology/topology_document.hpp: the Topology panel's document
// session/lab/lab_document.hpp: the Lab section's document. Not included here: Qt's `slots` macro breaks the lab's
// headers (LaunchArithmetic::slots), so Qt code reaches the lab through session/lab/lab_commands.hpp.
class LabDocument;

class Session {
 public:
  using Clock = std::chrono::steady_clock;

  struct Options {
    unsigned cpu_threads = 0;                 // the CPU backend's threads; 0: every core
    bool use_cuda = true;                     // false: never touch CUDA (--backend cpu, tests)
    std::chrono::milliseconds debounce{40};   // at most one run per this interval while values change
    int warmup = 1;                           // untimed launches before each run's timed ones
    int repeat = 5;                           // timed launches per run (the history keeps their median)
    int sweep_repeat = 3;                     // timed launches per block shape of a sweep
    int reference_repeat = 3;                 // timed launches of the CPU reference (seconds on large images)
    // CUDA results stay on the GPU for the display; true also copies each one to the host (timed as download).
    bool download_cuda_results = false;
    std::size_t history_limit = 200;          // runs kept per kernel
    std::function<Clock::time_point()> now;   // the clock of the debounce; tests step it by hand
  };

  using Notice = app::Notice;
  using LaunchInfo = app::LaunchInfo;

  explicit Session(Options options);
  Session() : Session(Options{}) {}
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const Options& options() const noexcept { return options_; }

  // ---- the documents ----
  // Image stencils: the loaded image, the stencil's runs and results, the timing history, the block sweep.
  StencilDocument& stencil() noexcept { return *stencil_; }
  const StencilDocument& stencil() const noexcept { return *stencil_; }
  // The live simulation (while simulating(); see simulation_runner.hpp).
  SimulationRunner& simulation() noexcept { return *simulation_; }
  const SimulationRunner& simulation() const noexcept { return *simulation_; }
  // The basics lab (while in_lab(); see lab_document.hpp). run_now() runs its request and waits; request_run()
  // does nothing there: a lab run can take seconds, so it starts from the Lab section's Run button.
  // export_timings writes the last lab report, export_result its image.
  LabDocument& lab() noexcept;
  const LabDocument& lab() const noexcept;
  // The Topology panel: its own document, worker and thread pool (a sweep must not hold up kernel runs), made
  // on first use.
  TopologyDocument& topology();

  // ---- the request (the Kernel section's; passed to the active document) ----
  const KernelSpec& kernel() const noexcept { return *choice_.kernel; }
  // Whether the session runs this kernel of the registry: image stencils, simulations (run live by
  // simulation(): the request's parameters, backend, variant and block go to it instead of a stencil run) and
  // the basics lab (lab(): parameters, backend and variant go to its request; it runs when asked, see Run).
  static bool can_run(const KernelSpec& spec) {
    return spec.category == "stencil" || spec.category == "simulation" || spec.category == "lab";
  }
  bool simulating() const noexcept { return choice_.kernel->category == "simulation"; }
  bool in_lab() const noexcept { return choice_.kernel->category == "lab"; }
  // Parameters reset to the kernel's defaults; the variant too when the new kernel lacks it. A usage Error for
  // an unknown id or a kernel the session cannot run.
  void select_kernel(const std::string& id);
  const ParamSet& params() const noexcept { return choice_.params; }
  // Checked by ParamSet: a usage Error for a bad value, never clamped; the previous value stays.
  void set_param(const std::string& name, const std::string& text);
  void reset_params();
  Backend backend() const noexcept { return choice_.backend; }
  // A Device error when CUDA is asked for but unavailable. The variant goes back to the backend's default.
  void set_backend(Backend backend);
  // The Timing section's Counters switch (off by default, so that timing stays clean): CUDA runs of stencils and
  // lab kernels then read the hardware counters of one more launch after the timed ones, and a CUDA simulation
  // those of one more step's launch, once per simulation and parameters (SimulationRunner::set_counters).
  void set_counters(bool on);
  bool counters() const noexcept { return stencil_->counters(); }
  // Which counters: Quick (the default here: one pass, about 50 ms a kernel) or All (9 passes); the next run
  // reads them.
  void set_counter_set(CounterSet set);
  CounterSet counter_set() const noexcept { return counter_set_; }
  // Empty: the backend's default ("cpu", or the fastest CUDA variant that applies).
  const std::string& variant() const noexcept { return choice_.variant; }
  std::string effective_variant() const;
  // A usage Error for a name the kernel does not have; a variant of the other backend switches the backend.
  void set_variant(const std::string& name);
  // Empty: the engine's default block (32x8). Checked against the GPU and the kernel when there is one.
  const std::optional<BlockShape>& block() const noexcept { return choice_.block; }
  BlockShape effective_block() const noexcept { return choice_.block.value_or(BlockShape{}); }
  void set_block(std::optional<BlockShape> block);
  const LaunchInfo& launch_info() const noexcept { return launch_info_; }
  // What cudaOccupancyMaxPotentialBlockSize suggests for the current kernel and variant (not applied).
  BlockShape suggest_block();

  // ---- your own kernel ----
  // Runs a user's stencil kernel (from the kernel editor) instead of the chosen built-in one, or (nullopt) goes
  // back to the built-in. The built-in stays chosen: its border mode applies, and its CPU reference is what the
  // user kernel's result is checked against; a simulation or lab kernel chosen now gives way to `box`. Usage
  // Error for a kernel that did not compile or is not a stencil.
  void use_user_kernel(std::optional<UserStencilChoice> choice);
  // Runs a user's `array` kernel (from the kernel editor) in the Lab instead of the chosen lab kernel's variants,
  // on that lab kernel's inputs, checked against its CPU reference (LabDocument::set_user_kernel), or (nullopt)
  // goes back to the built-in variants. A lab kernel the user's does not fit (or no lab kernel chosen) gives way to
  // the first that fits its inputs and output (vecadd for two arrays to one, reduce for one array to a scalar;
  // inputs/lab_user_inputs.hpp), with a notice; a user stencil kernel stops. Usage Error, and nothing changes, for
  // a kernel that did not compile, is not of the array family, or that no lab kernel fits (the words say what each
  // takes). session_user_array.cpp.
  void use_user_array_kernel(std::optional<UserArrayChoice> choice);
  // The user's array kernel running in the Lab, if any (for Qt code, which cannot include the lab's headers).
  const std::optional<UserArrayChoice>& user_array_kernel() const noexcept;
  // Steps the live simulation with a user's `step` kernel (session_user_step.cpp) instead of the built-in's
  // variant, or (nullopt) goes back to the built-in. The simulation is the one whose state the kernel's element
  // type fits — life for u8 cells (0 dead, 1 alive), heat for f32 temperatures (Gray-Scott keeps two values per
  // cell, which no step kernel carries) — chosen now if another kernel is, with a notice; its start, patterns,
  // brush, grid, block and steps per frame apply, and its CPU reference is what the kernel is checked against
  // (simulation().user_check()). A stencil kernel of yours gives way. Usage Error for a kernel that did not
  // compile or is not of the step family.
  void use_user_step_kernel(std::optional<UserStepChoice> choice);

  // ---- running (the active document's) ----
  void run_now();      // runs the current request and waits for it; throws its ks::Error
  void request_run();  // a run soon: the first change runs at the next poll, later ones at most once per debounce
  // Collects finished work and starts due runs. Call once per frame on the GUI thread.
  void poll();
  void cancel();       // stops the sweep between shapes; a running kernel finishes and its result is dropped
  // The app is closing: every worker's job is cancelled and no new one starts (the session's — run, load,
  // simulation, lab — and the Topology document's sweep, search or load), all at once, so that the destructors
  // then join workers that are already winding down instead of cancelling them one after another. The session
  // does no more work afterwards.
  void shut_down();
  Worker::Status job_status() const { return worker_->status(); }
  // A playing simulation keeps the worker going on its own: only what was asked of it counts — a change not yet
  // applied (a new start, pattern or kernel of yours), its follow-up (the check of a kernel of yours), queued steps.
  bool busy() const {
    const bool simulation_asked =
        simulating() && (simulation_->work_queued() || !(simulation_->settled() || simulation_->only_playing()));
    return stencil_->run_requested() || simulation_asked ||
           !(worker_->idle() || (simulating() && simulation_->only_playing()));
  }
  // Blocks until every requested run and job is done and applied (tests, headless use); a run still waiting
  // for its debounce interval starts at once.
  void wait_idle();

  // ---- what is on screen (the active document's) ----
  ui::DisplayFrame display_frame() const;
  // The result on screen: a stencil's result, a simulation's frame or a lab kernel's image.
  bool has_output() const noexcept;
  // The result on the host, copied from the GPU when it lives there (blocks for the copy).
  Image output_on_host() const;
  // What the workers posted and poll() applied so far (results, progress, the end of a job): the window draws
  // again when it changes, since a finished lab run or export changes no image.
  std::uint64_t updates_applied() const noexcept { return updates_applied_; }
  const DeviceStatus& device() const noexcept { return device_; }
  std::vector<Notice> take_notices() { return std::exchange(notices_, {}); }
  // The time it took to put output generation `generation` on screen and how ("CUDA-GL interop", "host upload").
  void note_display(std::uint64_t generation, double ms, std::string path);
  const std::string& display_path() const noexcept { return display_path_; }

  // ---- the block sweep (image stencils only; see StencilDocument::start_sweep) ----
  void start_sweep();
  const std::optional<SweepGrid>& sweep() const noexcept { return stencil_->sweep(); }
  bool sweep_running() const noexcept { return stencil_->sweep_running(); }

  // ---- the launch picture (teaching; session_launch_picture.cpp) ----
  // A device model's id ("h100", core/device_models.hpp), or empty: the GPU in use. Without a GPU a model lets
  // the Launch section and the overlay show block shapes and occupancy; with one it is there for comparison.
  const std::string& device_model() const noexcept { return device_model_; }
  void set_device_model(const std::string& id);  // a usage Error names the models for an unknown id
  // The CUDA variant pictured while the CPU backend runs (with a device model): tiled where the kernel has it.
  std::string modelled_variant() const;
  void set_modelled_variant(const std::string& name);  // a usage Error for a name that is not a CUDA variant
  // Geometry of the current launch — a stencil's or a simulation's — its device and its occupancy there
  // (cheap: computed on each call).
  LaunchPicture launch_picture() const;

  // ---- exports (the active document's) ----
  // The result at full resolution in the file's layout (channels and 16-bit depth of the input file) with its
  // JSON sidecar; see exports.hpp. A usage Error before the first result.
  void export_result(const std::filesystem::path& path, const SaveOptions& options = {}) const;
  // The same on the session's worker, for the window: a large result's PNG takes seconds, with progress ("42%
  // written") and Cancel in the job box meanwhile; the outcome is a Notice from Source::Export (Info, Error, or
  // Cancelled: no file written). A simulation frame or a lab image is exported at once. A usage Error (nothing to
  // export) is thrown here.
  void export_result_async(const std::filesystem::path& path, const SaveOptions& options = {});
  void export_timings(const std::filesystem::path& path) const;

  // ---- shorthands of the stencil document (stencil()) ----
  // Loading requests a run of the active family. See StencilDocument for each.
  void open_image(const std::filesystem::path& path) { stencil_->open_image(path); }
  void open_sample() { stencil_->open_sample(); }
  void open_image_async(const std::filesystem::path& path) { stencil_->open_image_async(path); }
  bool has_input() const noexcept { return stencil_->has_input(); }
  const std::string& input_name() const noexcept { return stencil_->input_name(); }
  const std::filesystem::path& input_path() const noexcept { return stencil_->input_path(); }
  const Image* input() const noexcept { return stencil_->input(); }
  ImageShape loaded_shape() const noexcept { return stencil_->loaded_shape(); }
  void set_element_type(ElemType type) { stencil_->set_element_type(type); }
  ElemType element_type() const noexcept { return stencil_->element_type(); }
  StencilRequest request() const { return stencil_->request(); }
  // A CUDA result stays on the GPU (shown through CUDA-GL interop, no host round trip): output() is null then
  // and output_device() holds it.
  const Image* output() const noexcept { return stencil_->output(); }
  const DeviceImageRef& output_device() const noexcept { return stencil_->output_device(); }
  const std::optional<RunReport>& last_report() const noexcept { return stencil_->last_report(); }
  std::uint64_t runs_applied() const noexcept { return stencil_->runs_applied(); }
  // The error of the latest run, if it failed (cleared by the next success).
  const std::optional<Error>& last_error() const noexcept { return stencil_->last_error(); }
  // Of the shown result: the CPU's time on the same request and how the pixels compare. For a CUDA result it
  // comes from a CPU run started once the values stop changing; empty until then.
  const std::optional<CpuReference>& cpu_reference() const noexcept { return stencil_->cpu_reference(); }
  const TimingHistory& history() const noexcept { return stencil_->history(); }

 private:
  // The request as the Session holds it, handed to the stencil document after each change.
  void pass_request_to_stencil();
  void refresh_launch_info();
  void start_device_probe();
  void make_stencil_document();
  // session_simulation.cpp: the hooks of the live simulation into the session.
  void make_simulation_runner();
  void enter_simulation();
  ui::DisplayFrame stencil_frame() const;
  ui::DisplayFrame simulation_frame() const;
  void run_simulation_now();
  void sync_simulation_launch_info();
  // session_lab.cpp: the same for the basics lab.
  void make_lab_document();
  void enter_lab();
  ui::DisplayFrame lab_frame() const;
  void run_lab_now();
  // session_user_array.cpp: after another kernel is chosen, the user's array kernel stays where the new one is a
  // lab kernel it fits, and stops (with a notice) elsewhere.
  void keep_user_array_kernel_if_it_fits();
  void notify(Notice::Level level, Notice::Source source, std::string text);

  Options options_;
  std::unique_ptr<Engine> engine_;  // used by the worker only, after construction
  CounterSet counter_set_ = CounterSet::Quick;
  void apply_counter_set();  // a job: the engine's CUDA context reads counter_set_ from the next run on
  DeviceStatus device_;
  DisplayGenerations generations_;

  KernelChoice choice_;  // the request, as the Kernel section edits it
  LaunchInfo launch_info_;
  std::string device_model_;      // empty: the GPU in use
  std::string modelled_variant_;  // empty: tiled, or naive

  std::uint64_t updates_applied_ = 0;  // updates_applied()
  std::string display_path_;
  std::vector<Notice> notices_;

  std::unique_ptr<TopologyDocument> topology_;
  // The documents below run jobs on worker_ that post to them: destroyed after it.
  std::unique_ptr<StencilDocument> stencil_;
  std::unique_ptr<SimulationRunner> simulation_;
  std::unique_ptr<LabDocument> lab_;
  std::unique_ptr<Worker> worker_;  // last: destroyed first, so no job outlives what it uses
};

}  // namespace ks::app
