#pragma once
// "Edit a copy" (the Source panel's button, issue 24): a built-in variant written as your own kernel, a
// self-contained `.cu` of the user-kernel contract (README "Your own kernel") with the built-in's current
// parameters filled in, so that running it gives the built-in's result. The texts come from the templates of
// assets/kernels/copies (copy_template.hpp's language); a variant that no family contract can express, or that
// calls a library, gets a sentence saying so and where to start instead.
#include <optional>
#include <string>

#include "core/image.hpp"
#include "registry/kernel_spec.hpp"
#include "registry/params.hpp"

namespace ks::copies {

struct KernelCopy {
  std::string file_name;  // "gaussian_naive.cu"
  std::string entry;      // "gaussian_naive": its __global__ function
  std::string family;     // "stencil": the contract it is written against
  std::string text;
};

// A copy of the variant, or the reason it has none (never both, never neither).
struct EditCopy {
  std::optional<KernelCopy> copy;
  std::string reason;
};

// The copy of `kernel`'s `variant` at `params` for images of `type` (u8 or f32: the copy's pixel type). Throws a
// usage Error for parameters make_stencil_plan refuses, as running the built-in would.
EditCopy edit_copy(const KernelSpec& kernel, const std::string& variant, const ParamSet& params, ElemType type);

}  // namespace ks::copies
