#pragma once
// `run --kernel-file FILE.cu`: a user's own stencil kernel on an image, in the worker process (a fault or an
// endless loop there cannot take the CLI down), with the built-ins' timing table and report, and optionally
// checked against a built-in kernel or the CPU reference.
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "core/kernel_counters.hpp"

namespace ks::cli {

struct UserKernelRunOptions {
  std::string kernel_file;
  std::string input;
  std::string output;
  std::vector<std::string> params;  // the kernel's declared ones, plus border= and border_value=
  std::string block;
  int repeat = 5;
  int warmup = 1;
  std::string type;
  std::string json;
  std::string compare;                      // KERNEL[:VARIANT]
  std::vector<std::string> compare_params;  // the reference's parameters
  std::string diff;                         // with compare: |difference| as a heatmap PNG
  std::optional<double> abs_tol, rel_tol;   // with compare: the tolerance (default: the type's)
  bool checked = false;
  double timeout_s = 2;
  bool counters = false;
  CounterSet counter_set = CounterSet::All;
};

int run_user_kernel(const UserKernelRunOptions& options, const GlobalOptions& global);

}  // namespace ks::cli
