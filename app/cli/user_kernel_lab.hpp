#pragma once
// `lab --kernel-file FILE.cu` and `sim --kernel-file FILE.cu`: a user's own `array` kernel on generated or .npy
// inputs (or, with --compare KERNEL[:VARIANT], a lab kernel's, and checked against it), and a user's own `step` kernel for N steps from a random soup or an image, in the worker process, with
// the timings against the copy bandwidth and the outputs written as files.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/user_kernel_common.hpp"
#include "cli/user_kernel_lab_compare.hpp"

namespace ks::cli {

struct UserArrayCliOptions {
  UserKernelCommon common;
  std::string size;                    // n: "1048576", "2^20", "1M", "2^20+3"
  std::vector<std::string> in_arrays;  // in1=FILE.npy, in2=...
  std::vector<std::string> out_arrays; // out=FILE.npy
  int repeat = 5;
  int warmup = 1;
  std::uint64_t seed = 1;
  std::string json;
  LabCompareOptions compare;  // --compare KERNEL[:VARIANT]: the inputs are the built-in's, and it is checked
};
int run_user_array_kernel(const UserArrayCliOptions& options, const GlobalOptions& global);

struct UserStepCliOptions {
  UserKernelCommon common;
  long long steps = 0;
  std::string size;   // WxH
  std::string input;  // an image for the first state
  std::uint64_t seed = 1;
  std::string output;
  std::string json;
  // The built-in simulation run from the same state for the same steps, whose final state yours is checked
  // against (inputs/step_reference.hpp): KERNEL[:VARIANT], its parameters, the tolerance over the type's default.
  std::string compare;
  std::vector<std::string> compare_params;
  std::optional<double> abs_tol, rel_tol;
};
int run_user_step_kernel(const UserStepCliOptions& options, const GlobalOptions& global);

}  // namespace ks::cli
