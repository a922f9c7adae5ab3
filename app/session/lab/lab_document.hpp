#pragma once
// The Lab section's document: the lab request being edited (kernel, size, parameters, backend, variant,
// block, host memory, streams), its runs on the session's worker, the reports they gave (one kept per
// request), the kmeans image, and the size sweep (time against size for every variant). No Qt, no GL.
//
// Threads: like the Session that owns it, every method is called on the GUI thread. Runs and sweeps are jobs
// on the session's worker (so the job indicator shows them, with progress and Cancel); they post their
// results back, and Session::poll() applies them here.
//
// Changes are checked at once with lab::check_lab_request (no device needed): a bad value is refused with a
// usage Error and the request stays as it was. Nothing is clamped.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/image.hpp"
#include "lab/lab.hpp"
#include "registry/kernel_spec.hpp"
#include "session/lab/user_array_choice.hpp"
#include "session/worker.hpp"
#include "usercode/check/comparison.hpp"
#include "usercode/run/worker_client.hpp"

namespace ks {
class Engine;
}

namespace ks::app {

// A finished lab run and the request that made it.
struct LabRun {
  std::uint64_t number = 0;  // 1, 2, ... in the order runs finished
  std::string key;           // lab_request_key of its request
  lab::LabReport report;
};

// One measured point of the size sweep.
struct LabSweepPoint {
  std::string variant;
  lab::LabSize size;
  double kernel_ms = 0;      // median of the timed repeats
  double end_to_end_ms = 0;  // upload + kernel + download (the kernel alone on the CPU backend)
};

// Time against size for every variant of the backend, at the sizes of lab_sweep_sizes.
struct LabSweep {
  std::string kernel;
  Backend backend = Backend::Cpu;
  std::vector<std::string> variants;
  std::vector<lab::LabSize> sizes;
  std::vector<LabSweepPoint> points;  // filled as the sweep goes
  std::vector<std::string> failures;  // "openblas at 2^20: ..." (a variant that cannot run is skipped)
  bool running = false;
  bool complete = false;  // every (variant, size) measured or failed; false after Cancel
};

// What distinguishes two requests' reports: kernel, backend, variant, size, parameters, block, host, streams.
std::string lab_request_key(const lab::LabRequest& request, const std::string& effective_variant,
                            const lab::LabSize& effective_size);

// The sizes a sweep measures, smallest first, up to `largest`: elements n, n/2, n/4, ... while they stay >=
// 2^10; grids and matrices halve every side while each stays >= 16 (and within the kernel's limits).
// Image-sized kernels (kmeans) have no sweep: a usage Error.
std::vector<lab::LabSize> lab_sweep_sizes(const lab::LabInfo& info, const lab::LabSize& largest);

class LabDocument {
 public:
  struct Options {
    int warmup = 1;
    int repeat = 5;
    int sweep_repeat = 3;
    bool cuda = false;             // whether the CUDA backend is usable
    std::string cuda_unavailable;  // why not
  };
  struct Hooks {
    std::function<std::uint64_t()> next_frame_generation;  // the session's output generation counter
    std::function<void(bool error, std::string text)> notify;
  };

  LabDocument(Engine& engine, Worker& worker, Options options, Hooks hooks);
  LabDocument(const LabDocument&) = delete;
  LabDocument& operator=(const LabDocument&) = delete;

  // ---- the request ----
  // Starts a request for this lab kernel: its default size and parameters; backend as given. The image is
  // what Image-sized kernels (kmeans) run on.
  void select(const KernelSpec& spec, Backend backend);
  bool active() const noexcept { return spec_ != nullptr; }
  const KernelSpec& spec() const;
  const lab::LabInfo& info() const;
  const lab::LabRequest& request() const noexcept { return request_; }
  lab::LabSize effective_size() const;  // the request's size, or the kernel's default (kmeans: the image's)
  std::string effective_variant() const;

  // Each throws a usage Error for a value the request cannot take, and keeps the previous request.
  void set_size(const lab::LabSize& size);
  void set_size_text(const std::string& text);  // "2^20", "1024x768", "7x13x5"
  void set_param(const std::string& name, const std::string& text);
  void set_params(const ParamSet& params);
  void set_backend(Backend backend);
  void set_variant(const std::string& name);  // empty: the backend's default
  void set_block(std::optional<BlockShape> block);
  void set_host(lab::HostMode mode);
  void set_streams(int streams);
  // The Timing section's Counters switch: CUDA runs then read the hardware counters of one more launch.
  void set_counters(bool on);
  // Which counters your kernel's runs read (built-in runs read the engine's set: Session::set_counter_set).
  void set_counter_set(CounterSet set) noexcept { counter_set_ = set; }
  // The loaded image, for kernels that work on one (kmeans); others ignore it. Clears a result image made
  // from another image.
  void set_image(std::shared_ptr<const Image> image);
  bool takes_image() const { return active() && info().form == lab::SizeForm::Image; }

  // ---- runs ----
  void run();  // the current request on the worker; throws a usage Error when no lab kernel is selected
  bool running() const noexcept { return runs_in_flight_ > 0; }
  // The latest finished run (the Lab section shows it), and whether the request changed since.
  const std::optional<LabRun>& last_run() const noexcept { return last_run_; }
  bool last_run_is_current() const;
  // The kept run of exactly the current request (going back to a variant or size measured before shows its
  // report again); null when there is none.
  const LabRun* run_for_request() const;
  // One run per request, the most recent last, at most kKeptRuns (the Roofline panel plots them).
  static constexpr std::size_t kKeptRuns = 24;
  const std::vector<LabRun>& runs() const noexcept { return runs_; }
  const std::optional<Error>& last_error() const noexcept { return last_error_; }

  // The image the last run made (kmeans: the quantised image), for the viewport; null when there is none.
  const Image* result_image() const noexcept { return result_image_.get(); }
  std::uint64_t result_generation() const noexcept { return result_generation_; }

  // ---- your own array kernel (lab_document_user.cpp) ----
  // Runs `choice` instead of the chosen lab kernel's variants from now on (in the worker process that runs users'
  // kernels): on the lab kernel's inputs at the request's size, parameters and seed, with the request's block
  // (default 256), timed and kept as a run whose variant is the file's name, and checked against the lab kernel's
  // CPU reference. Runs it at once; run() runs it again. nullopt goes back to the built-in. A usage Error (and
  // nothing changes) for a kernel that did not compile, is not of the array family, or does not fit the chosen lab
  // kernel (inputs/lab_user_inputs.hpp; the Session picks one that fits first). set_user_reference picks a
  // built-in variant to check against instead.
  void set_user_kernel(std::optional<UserArrayChoice> choice);
  const std::optional<UserArrayChoice>& user_kernel() const noexcept { return user_; }
  // Whether a user kernel's GPU work was ever cut off here (a fault, or its worker stopped mid-launch).
  bool user_gpu_work_cut_off() const noexcept { return user_worker_ && user_worker_->gpu_work_cut_off() > 0; }
  // A declared parameter's value, checked against its range (never clamped); runs again.
  void set_user_param(std::size_t index, double value);
  // The check of the latest run of the user's kernel: the whole comparison, against what ("vecadd:cpu"), and
  // which of the lab kernel's arrays its in1, in2, ... got and its out was compared with.
  struct UserCheck {
    usercode::Comparison comparison;
    std::string reference;
    std::vector<std::string> inputs;
    std::string output;
  };
  const std::optional<UserCheck>& user_check() const noexcept { return user_check_; }
  // Which of the lab kernel's built-in variants the user's kernel is checked against: "cpu" (the CPU reference, the
  // default) or another of its variants ("naive", "vector4"), run on the same inputs with the Kernel section's
  // parameters, as `kernelscope-cli lab --kernel-file F --compare KERNEL:VARIANT` does. Runs again. A usage Error
  // (and nothing changes) for a variant the kernel does not have, or a CUDA one without a GPU. Choosing another lab
  // kernel goes back to "cpu".
  void set_user_reference(const std::string& variant);
  const std::string& user_reference() const noexcept { return user_reference_; }
  // Abs and rel tolerance of the check (default: the kernel's element type's); compares the kept outputs again.
  void set_user_tolerance(const usercode::Tolerance& tolerance);
  const usercode::Tolerance& user_tolerance() const noexcept { return user_tolerance_; }

  // ---- the size sweep ----
  // Every variant of the backend at lab_sweep_sizes(info, current size): usage Error for kmeans, while one
  // runs, or without a kernel. Cancel (Worker::cancel_running) stops it between points; the points stay.
  void start_sweep();
  const std::optional<LabSweep>& sweep() const noexcept { return sweep_; }

 private:
  // The request with `change` applied, checked; throws before anything changes.
  void change(const std::function<void(lab::LabRequest&)>& edit);
  lab::LabRequest with_image(lab::LabRequest request) const;
  void apply_run(lab::LabResult result, const std::string& key);
  // The key of the run the current request makes: the built-in variant's, or the user kernel's.
  std::string current_key() const;
  void submit_user_run();
  void fail_run(const Error& e);

  Engine& engine_;
  Worker& worker_;
  Options options_;
  Hooks hooks_;
  const KernelSpec* spec_ = nullptr;
  lab::LabRequest request_;
  std::shared_ptr<const Image> image_;

  int runs_in_flight_ = 0;
  std::uint64_t runs_finished_ = 0;
  std::optional<LabRun> last_run_;
  std::vector<LabRun> runs_;
  std::optional<Error> last_error_;
  std::shared_ptr<const Image> result_image_;
  std::uint64_t result_generation_ = 0;
  std::optional<LabSweep> sweep_;

  std::optional<UserArrayChoice> user_;  // runs instead of the lab kernel's variants when set
  std::optional<UserCheck> user_check_;
  usercode::Tolerance user_tolerance_;
  std::string user_reference_ = "cpu";  // the variant of spec() the user's kernel is checked against
  // The latest user run's output and its reference's, kept so that a new tolerance compares again without a run.
  std::shared_ptr<const NdArray> user_output_, reference_output_;
  // The worker process of users' kernels, started on first use; only the session's worker thread talks to it.
  std::shared_ptr<usercode::WorkerClient> user_worker_;
  CounterSet counter_set_ = CounterSet::All;
};

}  // namespace ks::app
