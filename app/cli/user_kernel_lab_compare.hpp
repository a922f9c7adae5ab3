#pragma once
// `lab --kernel-file FILE.cu --compare KERNEL[:VARIANT]`: your `array` kernel checked against a built-in lab
// kernel (inputs/lab_user_inputs.hpp says which fit and how their arrays map onto in1, in2, ... and out). Every
// usage error (a kernel that is not a lab kernel, one that does not fit, a bad variant, parameter or size) comes
// here, before a worker or a GPU is asked for.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/user_kernel_common.hpp"
#include "core/ndarray.hpp"
#include "inputs/lab_user_inputs.hpp"

namespace ks {
class Engine;
}

namespace ks::cli {

struct LabCompareOptions {
  std::string compare;                      // KERNEL[:VARIANT]
  std::vector<std::string> compare_params;  // the reference's NAME=VALUE
  std::optional<double> abs_tol, rel_tol;
};

struct LabComparePlan {
  ComparedKernel reference;
  ParamSet params;
  inputs::LabArrayMapping mapping;
};

// nullopt without --compare (and then a usage Error for --compare-param, --abs-tol or --rel-tol alone).
std::optional<LabComparePlan> plan_lab_compare(const LabCompareOptions& options, const usercode::ArrayForm& form);

// The built-in's inputs at n elements from `seed`, with the .npy files given for in1, in2, ... (`given[k]`, empty
// where none; of the lab array's own type) in their place; checked against the lab kernel's limits at n (usage
// Error). In the lab's types, in the order of in1, in2, ...
std::vector<NdArray> lab_compare_inputs(Engine& engine, const LabComparePlan& plan, std::int64_t n, std::uint64_t seed,
                                        std::vector<NdArray> given);

}  // namespace ks::cli
