#pragma once
// The app's and the CLI's side of the worker process that runs users' kernels. A user's kernel can fault (an
// illegal address, a trap) and so poison the CUDA context of the process that launched it, or never end; so it
// runs in a child process (`kernelscope-cli worker`, with its own context) that this client starts on first use,
// feeds through shared memory and one JSON line per request, watches, kills when a launch does not finish in
// time, and starts again for the next run after a fault. Built-in kernels keep running in the caller's process.
#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "usercode/run/child_process.hpp"
#include "usercode/run/launch_plan.hpp"
#include "usercode/run/shared_memory.hpp"

namespace ks::usercode {

// The worker to start: $KS_WORKER when set, else kernelscope-cli beside the running executable.
std::string default_worker_executable();

class WorkerClient {
 public:
  struct Options {
    std::string executable;  // empty: default_worker_executable()
    std::vector<std::string> arguments{"worker"};
    // How long one launch may run before the watchdog stops it.
    std::chrono::milliseconds launch_timeout{2000};
    // Starting the worker (CUDA's initialisation), loading a module and moving the buffers.
    std::chrono::milliseconds setup_timeout{60000};
  };
  explicit WorkerClient(Options options);
  WorkerClient(const WorkerClient&) = delete;
  WorkerClient& operator=(const WorkerClient&) = delete;
  ~WorkerClient();

  // The worker's device (starting the worker when it is not running). ok is false, with the worker's message,
  // when it has no usable GPU; Error (Device) when it cannot be started at all.
  const WorkerHello& hello();

  // Runs `plan` with its buffers and module in `memory` (outputs come back there). Never throws for what the
  // kernel did: faults, refused launches, time-outs and a dying worker come back as the reply's outcome and
  // message, and the next run starts a fresh worker where needed. Throws Error (Cancelled) when `cancelled` said so
  // (the worker is stopped), Error (Device) when the worker cannot be started or has no GPU.
  // `progress(launches_done)` is called from this thread after each launch.
  WorkerReply run(const LaunchPlan& plan, const SharedMemory& memory, const std::function<bool()>& cancelled = {},
                  const std::function<void(int)>& progress = {});
  // The same, with the buffers marked in_result_block in `results` (a block from result_block()).
  WorkerReply run(const LaunchPlan& plan, const SharedMemory& memory, const SharedMemory& results,
                  const std::function<bool()>& cancelled = {}, const std::function<void(int)>& progress = {});

  // A block of shared memory of at least `bytes` for the next run's buffers: the same block while it is large
  // enough, so that its pages (and the worker's pinned mapping of them) are not made again for every run.
  SharedMemory& shared_memory(std::uint64_t bytes);
  // Whether that block still holds the input named `key` at `offset` (placed there by an earlier run and not
  // overwritten since), so that a run of the same input need not copy it again; mark_input records one placed.
  bool shared_memory_holds(const std::string& key, std::uint64_t offset) const;
  void mark_input(const std::string& key, std::uint64_t offset);

  // A block of at least `bytes` for a run's results, which images borrow in place (Image::borrow with the block
  // as keeper) instead of copying them out. It is one that no image reads any more: of the two the client keeps,
  // the one not shown while the other is, so a new run never writes pixels that are displayed, checked or
  // exported, and a worker that dies mid-run leaves them as they were. When both are still read, the older is
  // left to its readers (freed after the last) and a new block takes its place.
  std::shared_ptr<SharedMemory> result_block(std::uint64_t bytes);

  // How many worker processes this client started: what a worker kept on its GPU is gone once this changes.
  std::uint64_t starts() const noexcept { return starts_; }
  // A name no other buffer of this client's workers had, for a buffer a worker keeps (BufferPlan::keep_as).
  std::string new_buffer_name(const std::string& what) { return what + "#" + std::to_string(++names_); }

  // Whether a worker process is running now (for tests: a fault or a time-out ends it).
  bool running() const { return child_ != nullptr; }
  // Runs whose GPU work was cut off: a fault, or the worker stopped while a launch ran (time-out, cancel). Read
  // from any thread: the app stops using CUDA-GL interop after one (docs/PERF.md, "A fault and the display").
  unsigned gpu_work_cut_off() const noexcept { return cut_off_.load(std::memory_order_relaxed); }
  const Options& options() const { return options_; }

 private:
  void start();
  void stop();
  WorkerReply run_request(const LaunchPlan& plan, const SharedMemory& memory, const SharedMemory* results,
                          const std::function<bool()>& cancelled, const std::function<void(int)>& progress);

  Options options_;
  std::unique_ptr<ChildProcess> child_;
  std::optional<WorkerHello> hello_;
  std::optional<SharedMemory> memory_;
  std::string memory_input_key_;  // what mark_input recorded; empty: nothing known
  std::uint64_t memory_input_offset_ = 0;
  std::array<std::shared_ptr<SharedMemory>, 2> result_blocks_;
  std::size_t next_result_block_ = 0;  // the one replaced when both are read
  std::uint64_t starts_ = 0;
  std::uint64_t names_ = 0;
  std::atomic<unsigned> cut_off_{0};
};

}  // namespace ks::usercode
