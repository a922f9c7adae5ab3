#pragma once
// The image stencils' document: the loaded image (and the element type it runs as), the request of the stencil
// chosen in the Kernel section, its runs on the session's worker (debounced while values change), the result
// on screen, the CPU reference it is compared with, the timing history, the block sweep, and the exports of
// all that. No Qt, no GL.
//
// The Session owns it beside the SimulationRunner, the LabDocument and the TopologyDocument: the Session keeps
// which kernel is chosen with its parameters, backend, variant and block (the Kernel section edits them for
// every family) and passes them here with set_request; it keeps the notices, the device status and the
// display's generations, which this document shares by reference.
//
// Threads: like the Session, every method is called on the GUI thread. Runs, the CPU reference, loads, the
// sweep and large exports are jobs on the session's worker; they post their results back, and Session::poll()
// applies them here.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/device_image_ref.hpp"
#include "core/error.hpp"
#include "core/image.hpp"
#include "core/launch_shape.hpp"
#include "engine/engine.hpp"
#include "io/image_io.hpp"
#include "registry/kernel_spec.hpp"
#include "registry/params.hpp"
#include "session/exports.hpp"
#include "session/launch/launch_picture.hpp"
#include "session/session_shared.hpp"
#include "session/stencil/block_sweep.hpp"
#include "session/stencil/timing_history.hpp"
#include "session/stencil/user_stencil_choice.hpp"
#include "session/worker.hpp"
#include "usercode/check/comparison.hpp"
#include "usercode/run/user_stencil.hpp"
#include "usercode/run/worker_client.hpp"

namespace ks::app {

// Kernels whose f32 result is signed by nature (derivatives, Laplacian, zero-sum matrices): the viewport shows
// them with a diverging colormap around 0.
bool produces_signed_output(const std::string& kernel, const ParamSet& params);

class StencilDocument {
 public:
  using Clock = std::chrono::steady_clock;

  struct Options {
    std::chrono::milliseconds debounce{40};  // at most one run per this interval while values change
    int warmup = 1;
    int repeat = 5;
    int sweep_repeat = 3;
    int reference_repeat = 3;
    bool download_cuda_results = false;  // CUDA results stay on the GPU; true also copies each to the host
    std::size_t history_limit = 200;
    std::function<Clock::time_point()> now;  // the clock of the debounce
    Clock::time_point started;               // the history's times count from here
  };
  struct Hooks {
    std::function<void(Notice::Level, Notice::Source, std::string)> notify;
    // A new image or element type: the session hands the image to the lab and asks the active family for a run.
    std::function<void()> input_changed;
    // False while a lab kernel is chosen: a stencil run that ends then is dropped.
    std::function<bool()> takes_results;
  };

  StencilDocument(Engine& engine, Worker& worker, DeviceStatus& device, DisplayGenerations& generations,
                  Options options, Hooks hooks);
  StencilDocument(const StencilDocument&) = delete;
  StencilDocument& operator=(const StencilDocument&) = delete;

  // ---- the input ----
  // Loads a file on the calling thread. Throws ks::Error (the previous image stays).
  void open_image(const std::filesystem::path& path);
  void open_sample();
  // Loads on the worker (large files take seconds); success or failure arrives through poll() and notices.
  void open_image_async(const std::filesystem::path& path);
  bool has_input() const noexcept { return input_ != nullptr; }
  const std::string& input_name() const noexcept { return input_name_; }    // the path, or "embedded sample"
  const std::filesystem::path& input_path() const noexcept { return input_path_; }  // empty for the sample
  const Image* input() const noexcept { return input_.get(); }              // as the kernel takes it
  const std::shared_ptr<const Image>& shared_input() const noexcept { return input_; }  // the same, for jobs
  const std::shared_ptr<const Image>& file_image() const noexcept { return file_image_; }  // as loaded
  ImageShape loaded_shape() const noexcept { return loaded_shape_; }        // as the file holds it
  // The element type kernels run on: U8 or F32 (a 16-bit file runs as F32). Re-prepares the input.
  void set_element_type(ElemType type);
  ElemType element_type() const noexcept;

  // ---- the request (the session's choice, see set_request) ----
  // What the Session chose; checked there. Drops nothing and runs nothing: the session says when.
  void set_request(const KernelChoice& choice) { choice_ = choice; }
  // An empty variant is the backend's default ("cpu", or the fastest CUDA variant that applies).
  std::string effective_variant() const;
  // Whether the kernel can run this block on this GPU (registers, shared memory): a usage Error names the limit.
  // Nothing to check on the CPU backend or before an image is loaded.
  void check_block(const BlockShape& block) const;
  // What cudaOccupancyMaxPotentialBlockSize suggests for the kernel and variant (not applied).
  BlockShape suggest_block() const;
  // The occupancy of the current block, variant and kernel on this GPU, or why there is none.
  LaunchInfo launch_info() const;
  // The request as the engine takes it.
  StencilRequest request() const;

  // ---- your own kernel (stencil_document_user.cpp) ----
  // Runs `choice` instead of the built-in kernel from now on (in the worker process that runs users' kernels),
  // switching the element type to the one it takes; nullopt goes back to the built-in. A usage Error for a kernel
  // that did not compile or is not a stencil.
  void set_user_kernel(std::optional<UserStencilChoice> choice);
  const std::optional<UserStencilChoice>& user_kernel() const noexcept { return user_; }
  // Whether a user kernel's GPU work was ever cut off (a fault, or its worker stopped mid-launch).
  bool user_gpu_work_cut_off() const noexcept { return user_worker_ && user_worker_->gpu_work_cut_off() > 0; }
  // A declared parameter's value (range-checked: a usage Error outside its declaration), then a run.
  void set_user_param(std::size_t index, double value);
  // The check of the user kernel's result against the chosen built-in's CPU reference: the whole comparison and
  // |difference| as a heatmap (RGBA, black where nothing differs). Made with the CPU reference (poll).
  struct UserCheck {
    usercode::Comparison comparison;
    std::shared_ptr<const Image> heatmap;
  };
  const std::optional<UserCheck>& user_check() const noexcept { return user_check_; }
  // The tolerance of that check (default: the image type's: u8 exact, f32 1e-5 relative + 1e-5 absolute); a
  // change compares again (the CPU result is kept).
  void set_user_tolerance(const usercode::Tolerance& tolerance);
  const usercode::Tolerance& user_tolerance() const noexcept { return user_tolerance_; }
  // The viewport shows the heatmap in place of the result while this is on and there is a check.
  // The heatmap is made only while it is shown (at 8192² it costs a second of one core): turning it on checks
  // the result again, with the CPU result kept, and the heatmap shows once that check is back.
  void set_show_difference(bool on);
  bool showing_difference() const noexcept { return show_difference_ && user_ && user_check_ && user_check_->heatmap; }

  // The Timing section's Counters switch (off: timing stays clean): CUDA runs of built-in kernels then read the
  // hardware counters of one more launch (RunReport::counters). Turning it on runs again.
  void set_counters(bool on);
  bool counters() const noexcept { return counters_; }
  // Which counters your kernel's runs read (built-in runs read the engine's set: Session::set_counter_set).
  void set_counter_set(CounterSet set) noexcept { counter_set_ = set; }

  // ---- running ----
  // A run soon: the first change runs at the next poll, later ones at most once per debounce interval.
  void request_run() { run_requested_ = true; }
  bool run_requested() const noexcept { return run_requested_; }
  // Starts a run that is due, and the CPU reference once the values stop changing. Session::poll calls it
  // after applying the worker's results.
  void poll();
  // Starts the requested run now, debounce or not; false when none is requested (or there is no image).
  bool start_requested_run();
  // Starts a run of the current request now and returns its ticket (for throw_if_failed); a usage Error
  // without an image.
  std::uint64_t start_run();
  // Throws the error of run `ticket` if that run failed.
  void throw_if_failed(std::uint64_t ticket) const;
  // Another kind of kernel (a simulation, the lab) was chosen: the pending run, result, report and CPU
  // reference go.
  void drop_result();
  void drop_sweep() { sweep_.reset(); }

  // ---- results ----
  bool has_output() const noexcept { return output_ || output_device_; }
  const Image* output() const noexcept { return output_.get(); }
  const DeviceImageRef& output_device() const noexcept { return output_device_; }
  bool output_signed() const noexcept { return output_signed_; }
  // The result on the host, copied from the GPU when it lives there (blocks for the copy).
  Image output_on_host() const;
  const std::optional<RunReport>& last_report() const noexcept { return last_report_; }
  std::uint64_t runs_applied() const noexcept { return runs_applied_; }
  const std::optional<Error>& last_error() const noexcept { return last_error_; }
  const std::optional<CpuReference>& cpu_reference() const noexcept { return cpu_reference_; }
  const TimingHistory& history() const noexcept { return history_; }
  // The renderer put output generation `generation` on screen in `ms`: the history keeps it with its run.
  void note_display(std::uint64_t generation, double ms);

  // ---- the block sweep ----
  // Every valid block shape of the current kernel and variant, timed on the worker. A usage/device Error when
  // the backend is not CUDA or there is no input.
  void start_sweep();
  const std::optional<SweepGrid>& sweep() const noexcept { return sweep_; }
  bool sweep_running() const noexcept { return sweep_running_; }

  // ---- exports (stencil_exports.cpp) ----
  // The result in the file's layout with its sidecar, which names `display_path` (how it reached the screen).
  void export_result(const std::filesystem::path& path, const SaveOptions& options,
                     const std::string& display_path) const;
  // The same on the worker, with progress and Cancel; the outcome is a Notice from Source::Export.
  void export_result_async(const std::filesystem::path& path, const SaveOptions& options,
                           const std::string& display_path);
  void export_timings(const std::filesystem::path& path) const;

 private:
  // A finished run, posted back by the worker (built-in or user kernel).
  struct RunOutput {
    std::shared_ptr<const Image> output;  // null when the result stayed on the GPU only
    DeviceImageRef output_device;
    RunReport report;
    std::optional<std::size_t> free_memory;
  };

  void set_input(std::shared_ptr<const Image> file_image, std::string name, std::filesystem::path path);
  void prepare_input();
  void submit_run();
  void submit_user_run();
  // The report of a user kernel's run, as the built-ins' (on the session's worker thread).
  RunReport user_report(const usercode::UserStencilRun& run, const UserStencilChoice& user, const std::string& border,
                        const usercode::WorkerHello& hello, const ImageShape& shape) const;
  // The check of a user kernel's result (on the session's worker thread).
  UserCheck check_user_result(const Image& result, const Image& reference, const usercode::Tolerance& tolerance,
                              bool with_heatmap) const;
  // One block shape of the sweep for a user kernel: its report, or the Error of a block it cannot run.
  RunReport measure_user_block(const UserStencilChoice& user, usercode::WorkerClient& client, const Image& input,
                               int border, double border_value, BlockShape block) const;
  bool cpu_reference_due() const;
  void submit_cpu_reference();
  void apply_run(std::uint64_t input_generation, RunOutput out);
  void fail_run(std::uint64_t ticket, const Error& e);
  // Where the current result came from, for its export's sidecar; a usage Error before the first result.
  ResultProvenance provenance(const std::string& display_path) const;
  std::string reference_key() const;
  void notify(Notice::Level level, Notice::Source source, std::string text) const;
  double seconds_since_start() const;

  Engine& engine_;  // used by the worker's jobs only
  Worker& worker_;
  DeviceStatus& device_;
  DisplayGenerations& generations_;
  Options options_;
  Hooks hooks_;

  // input
  std::shared_ptr<const Image> file_image_;  // as loaded
  std::shared_ptr<const Image> input_;       // as the kernel takes it
  std::optional<ElemType> type_choice_;      // empty: what prepare_stencil_input picks
  std::string input_name_;
  std::filesystem::path input_path_;
  ImageShape loaded_shape_;

  KernelChoice choice_;  // the request it runs, as the session passed it
  std::optional<UserStencilChoice> user_;  // runs instead of choice_'s kernel when set
  std::optional<UserCheck> user_check_;    // of the shown result
  usercode::Tolerance user_tolerance_;
  bool show_difference_ = false;
  bool counters_ = false;
  CounterSet counter_set_ = CounterSet::All;
  // The worker process of users' kernels, started on first use; only the session's worker thread talks to it.
  std::shared_ptr<usercode::WorkerClient> user_worker_;

  // runs
  bool run_requested_ = false;
  std::optional<Clock::time_point> last_submit_;
  std::uint64_t next_ticket_ = 0;
  std::uint64_t runs_applied_ = 0;
  std::shared_ptr<const Image> output_;  // host result (CPU backend)
  DeviceImageRef output_device_;         // device result (CUDA backend)
  std::uint64_t output_run_ = 0;         // the history's run number of the shown result
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
};

}  // namespace ks::app
