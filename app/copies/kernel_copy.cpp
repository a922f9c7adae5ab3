#include "copies/kernel_copy.hpp"

#include <fmt/format.h>

#include "copies/lab_copy.hpp"
#include "copies/sim_copy.hpp"
#include "copies/stencil_copy.hpp"

namespace ks::copies {

namespace {

// Why a variant of a kernel outside the stencils has no copy, and where a kernel of one's own starts instead.
std::string reason_without_copy(const KernelSpec& kernel, const VariantSpec& v) {
  const std::string& id = kernel.id;
  if (v.backend != Backend::Cuda)
    return "This variant runs on the CPU, not as a CUDA kernel, so it has no copy to edit: copy one of the CUDA "
           "variants.";
  if (v.name == "cub")
    return "This variant calls CUB (cub::DeviceReduce): its copy would be one library call. Start from "
           "assets/kernels/reduce_sum.cu instead (File > New kernel), a shared-memory sum of your own.";
  if (v.name == "radix")
    return "This variant calls CUB's radix sort (cub::DeviceRadixSort): its copy would be one library call, and "
           "a sort takes several launches, which no family's one-launch contract expresses.";
  if (v.name.starts_with("cublas"))
    return "This variant calls cuBLAS (cublasSgemm): its copy would be one library call, and a matrix product "
           "(two 2-D matrices in, one out) fits no family's contract yet: the array family is 1-D.";
  if (kernel.id == "life" || kernel.id == "heat")
    return fmt::format("Only the naive variant of {} has a copy yet: Edit a copy of the naive variant (the same "
                       "result, one thread per cell) and make it faster from there.", kernel.id);
  if (kernel.category == "simulation")
    return "Copies of this simulation's kernels are not written yet. A `step` kernel of your own runs with "
           "`kernelscope-cli sim --kernel-file`: start from assets/kernels/life_step.cu (File > New kernel).";
  if (id == "reduce")
    return "No copy yet: the built-in sums in float or double (its accumulate parameter) over a grid sized to the "
           "device, and `shared` takes a second pass, while an `array` kernel has one launch and a scalar out of "
           "its input's type. Start from assets/kernels/reduce_sum.cu (File > New kernel): a shared-memory sum of "
           "your own, run with `kernelscope-cli lab --kernel-file`.";
  if (id == "integrate2d")
    return "The integrand is evaluated on a 2-D grid with no input arrays, which the array family (inputs of n "
           "elements) does not express. Start from assets/kernels/reduce_sum.cu (File > New kernel) for the sum.";
  if (id == "sort")
    return "The bitonic sort takes a launch per merge stage, which no family's one-launch contract expresses.";
  if (id == "matmul")
    return "A matrix product (two 2-D matrices in, one out) fits no family's contract yet: the array family is 1-D.";
  if (id == "kmeans")
    return "k-means' assignment reads points and centroids of different lengths, which the array family (inputs "
           "of n elements each) does not express.";
  return fmt::format("No family contract expresses the {} kernel {}, so it has no copy to edit.", kernel.category, id);
}

}  // namespace

EditCopy edit_copy(const KernelSpec& kernel, const std::string& variant, const ParamSet& params, ElemType type) {
  if (kernel.category == "stencil") return stencil_copy(kernel, variant, params, type);
  const VariantSpec* v = kernel.find_variant(variant);
  if (!v) return {std::nullopt, fmt::format("{} has no variant `{}`", kernel.id, variant)};
  if (kernel.category == "simulation")
    if (std::optional<KernelCopy> copy = sim_copy(kernel, variant, params)) return {std::move(copy), {}};
  if (kernel.category == "lab")
    if (std::optional<KernelCopy> copy = lab_copy(kernel, variant, params)) return {std::move(copy), {}};
  return {std::nullopt, reason_without_copy(kernel, *v)};
}

}  // namespace ks::copies
