#pragma once
// What the worker process must do to run a user's kernel, in terms that know nothing of families: which module
// and entry, the device buffers (where their bytes are in the shared memory, which to upload and download), the
// entry's arguments in order, the grid and block, how many launches are warm-up and how many are timed. The
// client builds a plan from a family's contract (family_plans.hpp); the worker executes it (plan_executor.hpp).
// Plans and the worker's replies cross the pipe as one JSON line each.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/kernel_counters.hpp"

namespace ks::usercode {

struct BufferPlan {
  BufferPlan() = default;
  // The fields every buffer has; the ones after content_key are set by name where they apply.
  BufferPlan(std::uint64_t bytes_, std::uint64_t offset_, bool upload_, bool download_, bool zero_each_launch_,
             std::string content_key_ = {})
      : bytes(bytes_), offset(offset_), upload(upload_), download(download_), zero_each_launch(zero_each_launch_),
        content_key(std::move(content_key_)) {}

  std::uint64_t bytes = 0;
  std::uint64_t offset = 0;       // where its bytes are in the shared memory (input and output alike)
  bool upload = false;            // copied to the device before the first launch (else zeroed)
  bool download = false;          // copied back to `offset` after the last launch
  bool zero_each_launch = false;  // set to zero before every launch (a scalar result accumulated by the kernel)
  // Non-empty for an input the client knows by name (the app's image of one generation): the worker keeps it on
  // the GPU and uploads it only when the name is new to it.
  std::string content_key;
  // Its bytes are in the request's result block (`result_shm`) at `offset`, not in the main block: a result the
  // client's images read in place while the next run writes into the other block (WorkerClient::result_block).
  bool in_result_block = false;
  // With content_key: the buffer must be one the worker holds (a `step` state it kept); when it does not (a fresh
  // worker), the run fails with kNotHeldMessage instead of starting from zeros.
  bool require_held = false;
  // Non-empty: after the last launch the worker keeps this buffer's contents (for a step, the latest state, after
  // the swaps) on the GPU under this name, as an input later plans name in content_key. A held buffer that a plan
  // with keep_as names in content_key is taken over (its contents change), not kept under its old name.
  std::string keep_as;
};

// The reply's message when a require_held buffer is not on the worker's GPU.
inline constexpr const char* kNotHeldMessage = "the worker does not hold that buffer";

// The fields of ks::InImage<T> / ks::OutImage<T> (gpu/usercode/prelude/ks_prelude.cuh) besides the pointer.
struct ImageArgument {
  int width = 0;
  int height = 0;
  int channels = 0;
  int pitch = 0;              // elements from one row to the next
  int element_bytes = 0;      // 1 (unsigned char) or 4 (float)
  int border = 0;             // ks::Border, InImage only
  double constant_value = 0;  // InImage only
};

enum class ArgumentKind { Buffer, Int32, Float32, InImage, OutImage };

struct LaunchArgument {
  ArgumentKind kind = ArgumentKind::Int32;
  int buffer = -1;        // Buffer, InImage, OutImage: index into LaunchPlan::buffers
  std::int64_t integer = 0;
  double real = 0;
  ImageArgument image;
};

struct LaunchPlan {
  std::uint64_t module_offset = 0;  // the CUBIN's place in the shared memory
  std::uint64_t module_bytes = 0;
  std::string module_key;           // the CUBIN's hash: the worker keeps loaded modules by it
  std::string entry;                // mangled name
  std::array<unsigned, 3> grid{1, 1, 1};
  std::array<unsigned, 3> block{1, 1, 1};
  std::vector<BufferPlan> buffers;
  std::vector<LaunchArgument> arguments;
  int warmup = 0;                   // launches before the timed ones
  int timed = 1;
  bool swap_first_two = false;      // `step`: arguments 0 and 1 exchange buffers after every launch
  bool checked = false;             // read the checked prelude's record of the first out-of-bounds access
  // Read the hardware counters of one more launch after the timed ones and the download (so that neither the
  // timings nor the results change; a step's state stays, the launch writes the other buffer).
  bool counters = false;
  CounterSet counter_set = CounterSet::All;  // which of them
};

// How a run ended in the worker.
enum class RunOutcome {
  Ok,
  LaunchRefused,  // the launch was refused before it ran (block too large, too many resources): context intact
  Fault,          // the kernel faulted (illegal address, trap, ...): the worker's context is gone; it exits
  Failed,         // anything else (module load, out of memory): context intact
  TimedOut,       // the client's watchdog stopped a launch that did not finish (the worker was killed)
  WorkerDied,     // the worker process ended without replying
};

// What a worker says once started: its device, or why it has none.
struct WorkerHello {
  bool ok = false;
  std::string device;   // "NVIDIA H100 80GB HBM3"
  std::string arch;     // "sm_90": what the client compiles for
  std::string message;  // when not ok
};

// What the GPU's driver says of the loaded entry (cudaFuncGetAttributes): the resources even when NVRTC's log
// left out ptxas's report.
struct EntryAttributes {
  bool known = false;
  int registers = 0;       // per thread
  int shared_bytes = 0;    // static
  int local_bytes = 0;     // stack frame and spills per thread
  int max_threads_per_block = 0;
};

struct WorkerReply {
  RunOutcome outcome = RunOutcome::Ok;
  std::string message;              // for everything but Ok: what happened, in a user's words
  std::string cuda_error;           // the CUDA error's name, when there was one ("cudaErrorIllegalAddress")
  std::vector<double> kernel_ms;    // each timed launch
  double upload_ms = 0;
  double download_ms = 0;
  double load_ms = 0;               // loading the module (0 when it was loaded before)
  EntryAttributes attributes;
  std::optional<nlohmann::json> check_record;  // checked mode: the record's words (check/check_record.hpp)
  std::vector<std::uint64_t> buffer_addresses;  // checked mode: each buffer's device address, to name the one hit
  // LaunchPlan::counters: the counters of that launch (named by the mangled entry), or why there are none.
  std::optional<CounterReading> counters;
};

nlohmann::json to_json(const LaunchPlan& plan);
LaunchPlan launch_plan_from_json(const nlohmann::json& j);
nlohmann::json to_json(const WorkerReply& reply);
WorkerReply worker_reply_from_json(const nlohmann::json& j);

nlohmann::json to_json(const WorkerHello& hello);
WorkerHello worker_hello_from_json(const nlohmann::json& j);

const char* to_string(RunOutcome o) noexcept;

}  // namespace ks::usercode
