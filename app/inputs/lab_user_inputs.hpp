#pragma once
// A user's own `array` kernel on a lab kernel's inputs (README "Your own kernel"): which lab kernels fit its
// contract, which of their arrays its in1, in2, ... get and which array its `out` is checked against, and the
// lab kernel's run on those inputs as the reference. Both front ends use it: the app's Lab (the editor's Run) and
// `kernelscope-cli lab --kernel-file FILE.cu --compare KERNEL[:VARIANT]`.
//
// A lab kernel fits when its arrays say so, not from a list: it takes n elements (not a grid, matrices or an
// image), its inputs (arrays it reads: Input and InOut) are 1-D arrays of n elements and as many as the user's
// kernel takes, and it changes exactly one array — of n elements for an `array` output, of one element for
// `// @output scalar` — whose element type the user's kernel can hold. The mapping is then positional:
//   vecadd  in1 = a, in2 = b   -> out against c          saxpy  in1 = x, in2 = y  -> out against y after the run
//   reduce  in1 = x            -> out[0] against sum     sort   in1 = keys        -> out against keys, sorted
//                                                               (payload=keys: an `unsigned int` kernel)
// and matmul (matrices), integrate2d (an N×M grid it samples itself, no input arrays) and kmeans (an image) fit
// no array kernel. Element types: the same as the lab's arrays, or `double` over the lab's f32 inputs (widened
// exactly); the reference's output is converted to the kernel's type for the check (reduce's accumulate=f64 sum
// rounded to float for a float kernel).
#include <optional>
#include <string>
#include <vector>

#include "core/ndarray.hpp"
#include "lab/lab.hpp"
#include "registry/kernel_spec.hpp"
#include "usercode/run/user_array.hpp"

namespace ks {
class Runtime;
class ThreadPool;
}  // namespace ks

namespace ks::inputs {

struct LabArrayMapping {
  std::string kernel;               // the lab kernel's id: "vecadd"
  std::vector<std::string> inputs;  // the lab arrays the user's in1, in2, ... get: {"a", "b"}
  std::string output;               // the lab array the user's out is checked against: "c"
  bool scalar = false;              // the output is one value (reduce's sum)
  DType lab_input_type = DType::F32;
  DType lab_output_type = DType::F32;
};

// How the kernel's form reads: "2 float inputs to an array of n", "1 float input to a scalar".
std::string describe_array_form(const usercode::ArrayForm& form);

// The mapping of `spec` (a lab kernel, with these parameters) onto a kernel of this form, or why it does not fit
// (one sentence naming the lab kernel, e.g. "matmul takes matrices (MxNxK), not arrays of n elements").
struct LabFit {
  std::optional<LabArrayMapping> mapping;
  std::string why_not;
};
LabFit fit_lab_kernel(const KernelSpec& spec, const ParamSet& params, const usercode::ArrayForm& form);

// The ids of the lab kernels that fit the form with their default parameters, in the registry's order.
std::vector<std::string> fitting_lab_kernels(const usercode::ArrayForm& form);

// The mapping, or a usage Error saying why `spec` does not fit and which lab kernels do.
LabArrayMapping lab_array_mapping(const KernelSpec& spec, const ParamSet& params, const usercode::ArrayForm& form);

// The lab kernel that a kernel of this form runs on when `current` (may be null) does not fit: the first that
// fits (vecadd for two inputs to an array, reduce for one input to a scalar). A usage Error naming what each lab
// kernel takes when none does.
const KernelSpec& lab_kernel_for(const usercode::ArrayForm& form, const KernelSpec* current, const ParamSet* params);

// The inputs the lab kernel itself runs on at `size` (its fill from `seed`, as `kernelscope-cli lab` makes them),
// named like its arrays; `given` (lab array names, e.g. from --in in1=FILE.npy) replace the filled ones and are
// checked against their type and length (usage Error). In the order of mapping.inputs.
std::vector<NdArray> lab_inputs(const KernelSpec& spec, const lab::LabSize& size, const ParamSet& params,
                                std::uint64_t seed, ThreadPool& pool, const LabArrayMapping& mapping,
                                std::vector<NdArray> given = {});

// An array as the user's kernel takes it: the same bytes, or f32 widened to f64 (exact), or f64 narrowed to f32
// (a reference's double sum for a float kernel). Other conversions are an Internal error (fit_lab_kernel refuses
// them first).
NdArray as_element_type(const NdArray& array, DType type);

// The lab kernel's run on `inputs` (lab_inputs' order) as the reference: variant "cpu" (the CPU reference) or a
// built-in one, its output array converted to `element` (the user's type).
struct LabReference {
  NdArray output;
  std::string label;  // "vecadd:cpu"
  double ms = 0;      // the reference's kernel time (one run)
};
LabReference run_lab_reference(Runtime& runtime, const KernelSpec& spec, const std::string& variant,
                               const lab::LabSize& size, const ParamSet& params, std::uint64_t seed,
                               const LabArrayMapping& mapping, const std::vector<NdArray>& inputs, DType element,
                               const lab::LabRunControl& control = {});

}  // namespace ks::inputs
