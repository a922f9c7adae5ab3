#include "copies/lab_copy.hpp"

#include <fmt/format.h>

#include <map>

#include "assets.hpp"
#include "copies/copy_template.hpp"
#include "core/error.hpp"

namespace ks::copies {

namespace {

// vecadd and saxpy: one IEEE operation per element, rounded once (__fadd_rn, __fmaf_rn), as the built-in does.
KernelCopy vec_copy(const KernelSpec& kernel, const std::string& variant, const ParamSet& params) {
  const bool add = kernel.id == "vecadd";
  const std::string entry = kernel.id + "_" + variant;
  std::map<std::string, std::string> values = {
      {"TITLE", kernel.title},
      {"KERNEL", kernel.id},
      {"ENTRY", entry},
      {"FILE", entry + ".cu"},
      {"X", add ? "a" : "x"},
      {"Y", add ? "b" : "y"},
      {"WHAT", add ? "out = a + b" : "out = alpha * x + y"},
      {"OP_NOTE", add ? "The add is __fadd_rn, rounded to nearest as the CPU's + is."
                      : "alpha * x + y is one fused multiply-add, __fmaf_rn, as the CPU's std::fma rounds it."},
      {"IN_PLACE", add ? "" : ";\n// the built-in updates y in place, the family writes a separate out"},
      {"OP", add ? "__fadd_rn(a, b)" : "__fmaf_rn(alpha, x, y)"},
      {"OP_I", add ? "__fadd_rn(a[i], b[i])" : "__fmaf_rn(alpha, x[i], y[i])"},
      {"EXTRA_PARAMETERS", add ? "" : ", float alpha"},
      {"EXTRA_ARGUMENTS", add ? "" : ", alpha"},
      {"DECLARATIONS", add ? "" : fmt::format("// @param alpha float [-1e6, 1e6] = {}  the scalar a of y = a * x + y\n",
                                              float_text(float(params.get_float("alpha"))))}};
  const std::string name = "vec_" + variant + ".cu";
  const std::string_view text = embedded::kernel_copy_template(name);
  if (text.empty()) throw Error(ErrorKind::Internal, "no embedded copy template " + name);
  return {entry + ".cu", entry, "array", expand_template(text, values, {})};
}

}  // namespace

std::optional<KernelCopy> lab_copy(const KernelSpec& kernel, const std::string& variant, const ParamSet& params) {
  if ((kernel.id == "vecadd" || kernel.id == "saxpy") &&
      (variant == "naive" || variant == "gridstride" || variant == "vector4"))
    return vec_copy(kernel, variant, params);
  return std::nullopt;
}

}  // namespace ks::copies
