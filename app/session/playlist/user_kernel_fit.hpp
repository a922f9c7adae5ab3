#pragma once
// Which built-in kernel a playlist's user kernel can stand in for, by its family, without compiling it: a stencil
// runs in place of an image kernel, an array kernel in the Lab on a lab kernel's inputs, a step kernel steps life
// (u8 cells) or heat (f32) - Gray-Scott keeps two values per cell, which no step kernel carries. The finer fit
// (how many inputs an array kernel takes, a step kernel's element type) needs the compiled signature and is
// checked when the step shows (Session::use_user_*_kernel, inputs/lab_user_inputs.hpp, inputs/step_reference.hpp).
#include <string>

#include "registry/kernel_spec.hpp"
#include "usercode/family.hpp"

namespace ks::app {

bool user_kernel_fits(usercode::Family family, const KernelSpec& kernel);

// Why `file_name`, of `family`, cannot run with `kernel` chosen, and what it can run with; empty when it can.
std::string user_kernel_misfit(usercode::Family family, const KernelSpec& kernel, const std::string& file_name);

}  // namespace ks::app
