#pragma once
// A run of a user's `array` kernel on a lab kernel's inputs as the Lab shows a built-in variant's run: the same
// LabReport (upload / kernel / download, the bytes that must move, GB/s, GFLOP/s, % of the copy bandwidth, the
// launch arithmetic, occupancy and the roofline), under the lab kernel's id with the user's file as its variant,
// so the Lab section, its Timing timeline and the Roofline treat it like any variant.
#include <string>

#include "lab/lab_report.hpp"
#include "report/user_run_report.hpp"
#include "usercode/check/comparison.hpp"
#include "usercode/run/user_array.hpp"

namespace ks::report {

struct UserLabRun {
  const KernelSpec* lab_kernel = nullptr;  // whose inputs it ran on (its cost model counts the operations)
  const ParamSet* lab_params = nullptr;     // the lab kernel's parameters
  lab::LabSize size;
  usercode::ArrayForm form;
  const usercode::UserArrayRun* run = nullptr;
  std::uint64_t seed = 1;
  int warmup = 0;
};

// The bytes are the user's arrays as they are (inputs read once, the output written once, in its element type);
// the operations are the lab kernel's definition (vecadd: n additions), whatever the user's code does.
lab::LabReport user_array_lab_report(const UserRunContext& context, const UserLabRun& run);

// The check against the reference as the Lab's report shows a built-in's check against the CPU.
lab::LabCheck lab_check_of(const usercode::Comparison& comparison, const std::string& reference_label);

}  // namespace ks::report
