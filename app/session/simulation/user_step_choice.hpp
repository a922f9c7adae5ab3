#pragma once
// A user's own `step` kernel as the live simulation runs it instead of the built-in one (issue 24): the compiled
// kernel (from the editor), its file's name and the values of its declared parameters. The simulation it stands in
// for keeps its start, patterns, brush, grid and block; its CPU reference is what the kernel is checked against.
#include <memory>
#include <string>
#include <vector>

#include "usercode/user_kernel.hpp"

namespace ks::app {

struct UserStepChoice {
  std::shared_ptr<const usercode::CompiledKernel> kernel;
  std::string file_name;       // "life_step.cu"
  std::vector<double> params;  // declared order
};

}  // namespace ks::app
