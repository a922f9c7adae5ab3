#pragma once
// A user's own kernel as a document runs it instead of a built-in one (issue 24): the compiled kernel (from the
// editor, a file or a playlist), its file's name, and the values of its declared parameters in declaration order.
// The image document takes a `stencil` kernel (stencil/user_stencil_choice.hpp), the Lab an `array` kernel
// (lab/user_array_choice.hpp), the live simulation a `step` kernel (simulation/user_step_choice.hpp).
#include <memory>
#include <string>
#include <vector>

#include "usercode/user_kernel.hpp"

namespace ks::app {

struct UserKernelChoice {
  std::shared_ptr<const usercode::CompiledKernel> kernel;
  std::string file_name;       // "smooth.cu"
  std::vector<double> params;  // declared order
};

}  // namespace ks::app
