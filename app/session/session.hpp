#pragma once
// The app's document: which image is loaded, which kernel with which parameters, backend, variant and block
// shape; the latest result, the timing history, the block sweep, the device. The Qt window, the ImGui panels,
// the headless --screenshot path and the tests all drive the app through this class; it has no Qt and no GL.
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
#include "core/device_info.hpp"
#include "core/error.hpp"
#include "core/image.hpp"
#include "core/launch_shape.hpp"
#include "core/occupancy.hpp"
#include "engine/engine.hpp"
#include "io/image_io.hpp"
#include "registry/kernel_spec.hpp"
#include "registry/params.hpp"
#include "session/display_frame.hpp"
#include "session/exports.hpp"
#include "session/stencil/block_sweep.hpp"
#include "session/exports.hpp"
#include "session/launch/launch_picture.hpp"
#include "session/simulation/simulation_runner.hpp"
#include "session/stencil/timing_history.hpp"
#include "session/worker.hpp"

namespace ks::app {

class TopologyDocument;  // session/topology/topology_document.hpp: the Topology panel's document
// session/lab/lab_document.hpp: the Lab section's document. Not included here: Qt's `slots` macro breaks the lab's
// headers (LaunchArithmetic::slots), so Qt code reaches the lab through session/lab/lab_commands.hpp.
class LabDocument;

// What the Device panel shows.
struct DeviceStatus {
  bool cuda = false;
  std::string unavailable_reason;  // why the CUDA backend cannot be used (when !cuda)
  DeviceInfo info;                 // the GPU in use (when cuda)
  double copy_bandwidth_gbps = 0;  // 0 until measured (a worker job at start)
  std::size_t free_memory = 0;     // refreshed after each CUDA run
  std::string cpu;                 // "CPU (8 threads)"
};

// Kernels whose f32 result is signed by nature (derivatives, Laplacian, zero-sum matrices): the viewport shows
// them with a diverging colormap around 0.
bool produces_signed_output(const std::string& kernel, const ParamSet& params);

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

  // What happened in the background, for the window's status bar or a dialog.
  struct Notice {
    enum class Level { Info, Error, Cancelled };  // Cancelled: what the user stopped (no error, no result)
    enum class Source { Load, Run, Reference, Sweep, Export, Other };
    Level level = Level::Info;
    Source source = Source::Other;
    std::string text;
  };

  struct LaunchInfo {
    std::optional<OccupancyReport> occupancy;  // of the current block, variant and kernel on this GPU
    std::string problem;                       // why there is none (CPU backend, block the kernel cannot run)
  };

  explicit Session(Options options);
  Session() : Session(Options{}) {}
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const Options& options() const noexcept { return options_; }

  // ---- the input ----
  // Loads a file on the calling thread. Throws ks::Error (the previous image stays) and requests a run.
  void open_image(const std::filesystem::path& path);
  void open_sample();
  // Loads on the worker (large files take seconds); success or failure arrives through poll() and notices.
  void open_image_async(const std::filesystem::path& path);
  bool has_input() const noexcept { return input_ != nullptr; }
  const std::string& input_name() const noexcept { return input_name_; }    // the path, or "embedded sample"
  const std::filesystem::path& input_path() const noexcept { return input_path_; }  // empty for the sample
  const Image* input() const noexcept { return input_.get(); }              // as the kernel takes it
  ImageShape loaded_shape() const noexcept { return loaded_shape_; }        // as the file holds it
  // The element type kernels run on: U8 or F32 (a 16-bit file runs as F32). Re-prepares the input and re-runs.
  void set_element_type(ElemType type);
  ElemType element_type() const noexcept;

  // ---- the request ----
  const KernelSpec& kernel() const noexcept { return *kernel_; }
  // Whether the session runs this kernel of the registry: image stencils, simulations (run live by
  // simulation(): the request's parameters, backend, variant and block go to it instead of a stencil run) and
  // the basics lab (lab(): parameters, backend and variant go to its request; it runs when asked, see Run).
  static bool can_run(const KernelSpec& spec) {
    return spec.category == "stencil" || spec.category == "simulation" || spec.category == "lab";
  }
  bool simulating() const noexcept { return kernel_->category == "simulation"; }
  bool in_lab() const noexcept { return kernel_->category == "lab"; }
  // Parameters reset to the kernel's defaults; the variant too when the new kernel lacks it. A usage Error for
  // an unknown id or a kernel the session cannot run.
  void select_kernel(const std::string& id);
  const ParamSet& params() const noexcept { return params_; }
  // Checked by ParamSet: a usage Error for a bad value, never clamped; the previous value stays.
  void set_param(const std::string& name, const std::string& text);
  void reset_params();
  Backend backend() const noexcept { return backend_; }
  // A Device error when CUDA is asked for but unavailable. The variant goes back to the backend's default.
  void set_backend(Backend backend);
  // Empty: the backend's default ("cpu", or the fastest CUDA variant that applies).
  const std::string& variant() const noexcept { return variant_; }
  std::string effective_variant() const;
  // A usage Error for a name the kernel does not have; a variant of the other backend switches the backend.
  void set_variant(const std::string& name);
  // Empty: the engine's default block (32x8). Checked against the GPU and the kernel when there is one.
  const std::optional<BlockShape>& block() const noexcept { return block_; }
  BlockShape effective_block() const noexcept { return block_.value_or(BlockShape{}); }
  void set_block(std::optional<BlockShape> block);
  const LaunchInfo& launch_info() const noexcept { return launch_info_; }
  // What cudaOccupancyMaxPotentialBlockSize suggests for the current kernel and variant (not applied).
  BlockShape suggest_block();
  // The request as the engine takes it.
  StencilRequest request() const;

  // ---- running ----
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
  // A playing simulation keeps the worker going on its own: only what was asked of it counts.
  bool busy() const {
    return run_requested_ || (simulating() && simulation_->work_queued()) ||
           !(worker_->idle() || (simulating() && simulation_->only_playing()));
  }
  // Blocks until every requested run and job is done and applied (tests, headless use); a run still waiting
  // for its debounce interval starts at once.
  void wait_idle();

  // ---- results ----
  ui::DisplayFrame display_frame() const;
  // The result on screen and the run that made it. A CUDA result stays on the GPU (shown through CUDA-GL
  // interop, no host round trip): output() is null then and output_device() holds it.
  bool has_output() const noexcept;
  const Image* output() const noexcept { return output_.get(); }
  const DeviceImageRef& output_device() const noexcept { return output_device_; }
  // The result on the host, copied from the GPU when it lives there (blocks for the copy).
  Image output_on_host() const;
  const std::optional<RunReport>& last_report() const noexcept { return last_report_; }
  std::uint64_t runs_applied() const noexcept { return runs_applied_; }
  // The error of the latest run, if it failed (cleared by the next success).
  const std::optional<Error>& last_error() const noexcept { return last_error_; }
  // Of the shown result: the CPU's time on the same request and how the pixels compare. For a CUDA result it
  // comes from a CPU run started once the values stop changing; empty until then.
  const std::optional<CpuReference>& cpu_reference() const noexcept { return cpu_reference_; }
  const TimingHistory& history() const noexcept { return history_; }
  const DeviceStatus& device() const noexcept { return device_; }
  std::vector<Notice> take_notices() { return std::exchange(notices_, {}); }

  // ---- the block sweep ----
  // Every valid block shape of the current kernel and variant, timed on the worker. A usage/device Error when
  // the backend is not CUDA or there is no input.
  void start_sweep();
  const std::optional<SweepGrid>& sweep() const noexcept { return sweep_; }
  bool sweep_running() const noexcept { return sweep_running_; }

  // ---- what the renderer reports ----
  // The time it took to put output generation `generation` on screen and how ("CUDA-GL interop", "host upload").
  void note_display(std::uint64_t generation, double ms, std::string path);
  const std::string& display_path() const noexcept { return display_path_; }

  // ---- the Topology panel ----
  // Its own document, worker and thread pool (a sweep must not hold up kernel runs), made on first use.
  TopologyDocument& topology();

  // ---- the launch picture (teaching; session_launch_picture.cpp) ----
  // A device model's id ("h100", core/device_models.hpp), or empty: the GPU in use. Without a GPU a model lets
  // the Launch section and the overlay show block shapes and occupancy; with one it is there for comparison.
  const std::string& device_model() const noexcept { return device_model_; }
  void set_device_model(const std::string& id);  // a usage Error names the models for an unknown id
  // The CUDA variant pictured while the CPU backend runs (with a device model): tiled where the kernel has it.
  std::string modelled_variant() const;
  void set_modelled_variant(const std::string& name);  // a usage Error for a name that is not a CUDA variant
  // Geometry of the current launch, its device and its occupancy there (cheap: computed on each call).
  LaunchPicture launch_picture() const;

  // ---- the live simulation (while simulating(); see simulation_runner.hpp) ----
  SimulationRunner& simulation() noexcept { return *simulation_; }
  const SimulationRunner& simulation() const noexcept { return *simulation_; }

  // ---- the basics lab (while in_lab(); see lab_document.hpp) ----
  // run_now() runs its request and waits; request_run() does nothing there: a lab run can take seconds, so it
  // starts from the Lab section's Run button. export_timings writes the last lab report, export_result its image.
  LabDocument& lab() noexcept;
  const LabDocument& lab() const noexcept;

  // ---- exports ----
  // The result at full resolution in the file's layout (channels and 16-bit depth of the input file) with its
  // JSON sidecar; see exports.hpp. A usage Error before the first result.
  void export_result(const std::filesystem::path& path, const SaveOptions& options = {}) const;
  // The same on the session's worker, for the window: a large result's PNG takes seconds, with progress ("42%
  // written") and Cancel in the job box meanwhile; the outcome is a Notice from Source::Export (Info, Error, or
  // Cancelled: no file written). A simulation frame or a lab image is exported at once. A usage Error (nothing to
  // export) is thrown here.
  void export_result_async(const std::filesystem::path& path, const SaveOptions& options = {});
  void export_timings(const std::filesystem::path& path) const;

 private:
  struct RunOutput;

  void set_input(std::shared_ptr<const Image> file_image, std::string name, std::filesystem::path path);
  // Where the current result came from, for its export's sidecar; a usage Error before the first result.
  ResultProvenance provenance() const;
  void prepare_input();
  void refresh_launch_info();
  void submit_run();
  bool cpu_reference_due() const;
  void submit_cpu_reference();
  void start_device_probe();
  void apply_run(std::uint64_t input_generation, RunOutput out);
  void fail_run(std::uint64_t ticket, const Error& e);
  // session_simulation.cpp: the hooks of the live simulation into the stencil document's methods.
  void make_simulation_runner();
  // Another kind of kernel (a simulation, the lab) was chosen: the stencil's pending run, result, report and
  // CPU reference go.
  void drop_stencil_result();
  void enter_simulation();
  ui::DisplayFrame simulation_frame() const;
  void run_simulation_now();
  void sync_simulation_launch_info();
  // session_lab.cpp: the same for the basics lab.
  void make_lab_document();
  void enter_lab();
  ui::DisplayFrame lab_frame() const;
  void run_lab_now();
  void notify(Notice::Level level, Notice::Source source, std::string text);
  double seconds_since_start() const;
  Clock::time_point now() const;
  std::string reference_key() const;

  Options options_;
  Clock::time_point started_;
  std::unique_ptr<Engine> engine_;  // used by the worker only, after construction
  DeviceStatus device_;

  // input
  std::shared_ptr<const Image> file_image_;  // as loaded
  std::shared_ptr<const Image> input_;       // as the kernel takes it
  std::optional<ElemType> type_choice_;      // empty: what prepare_stencil_input picks
  std::string input_name_;
  std::filesystem::path input_path_;
  ImageShape loaded_shape_;
  std::uint64_t input_generation_ = 0;

  // request
  const KernelSpec* kernel_ = nullptr;
  ParamSet params_;
  Backend backend_ = Backend::Cpu;
  std::string variant_;
  std::optional<BlockShape> block_;
  LaunchInfo launch_info_;
  std::string device_model_;      // empty: the GPU in use
  std::string modelled_variant_;  // empty: tiled, or naive

  // runs
  bool run_requested_ = false;
  std::optional<Clock::time_point> last_submit_;
  std::uint64_t next_ticket_ = 0;
  std::uint64_t runs_applied_ = 0;
  std::shared_ptr<const Image> output_;  // host result (CPU backend)
  DeviceImageRef output_device_;         // device result (CUDA backend)
  std::uint64_t output_generation_ = 0;
  std::uint64_t output_run_ = 0;  // the history's run number of the shown result
  bool output_signed_ = false;
  std::optional<RunReport> last_report_;
  std::optional<Error> last_error_;
  std::uint64_t last_error_ticket_ = 0;
  std::optional<CpuReference> cpu_reference_;     // of the shown result
  std::uint64_t reference_tried_for_ = 0;         // output generation whose reference was started
  std::string reference_key_;                     // kernel, parameters and input of the CPU output below
  std::shared_ptr<const Image> reference_output_;
  double reference_ms_ = 0;
  TimingHistory history_;
  std::optional<SweepGrid> sweep_;
  bool sweep_running_ = false;
  std::string display_path_;
  std::vector<Notice> notices_;

  std::unique_ptr<TopologyDocument> topology_;
  std::unique_ptr<SimulationRunner> simulation_;  // its jobs post to it: destroyed after worker_
  std::unique_ptr<LabDocument> lab_;              // likewise
  std::unique_ptr<Worker> worker_;  // last: destroyed first, so no job outlives what it uses
};

}  // namespace ks::app
