#pragma once
// A user's own stencil kernel as the image document runs it instead of the built-in one: the compiled kernel
// (from the editor or a file), the values of its declared parameters, and whether it was compiled checked. The
// built-in kernel chosen in the sidebar stays chosen: its border mode is the user kernel's, and its CPU
// reference is what the user kernel's result is checked against.
#include <memory>
#include <string>
#include <vector>

#include "usercode/user_kernel.hpp"

namespace ks::app {

struct UserStencilChoice {
  std::shared_ptr<const usercode::CompiledKernel> kernel;
  std::string file_name;       // "smooth.cu"
  std::vector<double> params;  // declared order
};

}  // namespace ks::app
