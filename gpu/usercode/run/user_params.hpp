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

// `values` (one per declared parameter) with parameter `index` set to `value`, checked as NAME=VALUE is (the app's
// sliders). Internal Error for an index or a count that does not match the declarations.
std::vector<double> with_user_param(const KernelDeclarations& declarations, const std::vector<double>& values,
                                    std::size_t index, double value);
// The values a new compile of a kernel starts with: each parameter's default, or the value a parameter of the
// same name and type had in the kernel it replaces (`before`, with `before_values`) when that lies in the new
// range. So an edit of the code keeps what the sliders were set to.
std::vector<double> carried_param_values(const KernelDeclarations& declarations, const KernelDeclarations* before,
                                         const std::vector<double>& before_values);

}  // namespace ks::usercode
