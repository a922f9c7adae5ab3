#pragma once
// What `run`, `lab` and `sim --kernel-file` share: compiling the user's file for the worker's GPU (its errors at
// the file's lines, exit 2), starting the worker, and turning a reply that is not Ok into the error the CLI prints.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "registry/kernel_spec.hpp"
#include "usercode/check/comparison.hpp"
#include "usercode/check/tolerance.hpp"
#include "usercode/run/user_launch.hpp"
#include "usercode/run/worker_client.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::cli {

inline constexpr int kKernelDoesNotCompile = 2;

struct UserKernelCommon {
  std::string kernel_file;
  std::vector<std::string> params;  // the kernel's declared ones (NAME=VALUE)
  std::string block;                // "WxH" or "B"
  bool checked = false;
  double timeout_s = 2;
  bool counters = false;  // --counters: the hardware counters of one more launch after the timed ones
  CounterSet counter_set = CounterSet::All;
};

// A compiled user kernel with its worker, ready to run.
struct PreparedUserKernel {
  std::string source;
  usercode::CompiledKernel kernel;
  std::unique_ptr<usercode::WorkerClient> worker;
  usercode::UserLaunchOptions launch;
};

// Compiles `common.kernel_file` as `family`, printing the diagnostics to stderr, and checks the parameters and
// the block: false when it does not compile (the caller exits with kKernelDoesNotCompile). No device is needed.
bool prepare_user_kernel(const UserKernelCommon& common, const std::string& family, PreparedUserKernel& out);
// Then, once the rest of the request is checked: starts the worker (a Device error without a GPU) and compiles
// again for its GPU's architecture when that is not sm_90.
void start_user_worker(const UserKernelCommon& common, const std::string& family, PreparedUserKernel& out);

// --counters: the counters the worker read with the reply, or none (and why, said once on standard error).
std::optional<KernelCounters> user_counters(const usercode::WorkerReply& reply, bool asked);

// Throws the Device error a reply that is not Ok stands for (the fault's words, and what to try next).
void throw_unless_ok(const usercode::WorkerReply& reply, bool checked);

// --compare KERNEL[:VARIANT]: the built-in kernel and its variant ("cpu", the CPU reference, when none is named).
// A usage Error for an unknown kernel or a variant it does not have; the caller checks the kernel's category.
struct ComparedKernel {
  const KernelSpec* spec = nullptr;
  std::string variant;
  std::string label;  // "box:naive"
};
ComparedKernel parse_compare(const std::string& text);

// The check's tolerance: the element type's default with --abs-tol / --rel-tol in its place where given.
usercode::Tolerance chosen_tolerance(usercode::Tolerance defaults, std::optional<double> abs_tol,
                                     std::optional<double> rel_tol);

// "check against box:naive: differs: ..." as `run`, `lab` and `sim --compare` print it.
std::string comparison_line(const std::string& label, const usercode::Comparison& comparison);

}  // namespace ks::cli
