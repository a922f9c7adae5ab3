#pragma once
// The values of a user kernel's declared parameters (`// @param`), from NAME=VALUE assignments: each checked
// against its declaration (a known name, a number, an integer for `int`, inside its range: never clamped);
// undeclared ones keep their defaults. In declaration order, as the entry takes them.
#include <string>
#include <vector>

#include "usercode/declarations.hpp"

namespace ks::usercode {

std::vector<double> user_param_values(const KernelDeclarations& declarations,
                                      const std::vector<std::string>& assignments);

// The values a new compile of a kernel starts with: each parameter's default, or the value a parameter of the
// same name and type had in the kernel it replaces (`before`, with `before_values`) when that lies in the new
// range. So an edit of the code keeps what the sliders were set to.
std::vector<double> carried_param_values(const KernelDeclarations& declarations, const KernelDeclarations* before,
                                         const std::vector<double>& before_values);

}  // namespace ks::usercode
