#pragma once
// A user's own `array` kernel as the Lab runs it instead of the chosen lab kernel's variants: the compiled kernel
// (from the editor), its file name (its runs' variant label) and the values of its declared parameters. The lab
// kernel chosen in the Kernel section stays chosen: its inputs are the user kernel's, and its CPU reference is what
// the user kernel's result is checked against (inputs/lab_user_inputs.hpp: which lab kernels fit and how).
// No lab header here, so Qt code may include it (see session.hpp on Qt's `slots`).
#include "session/user_kernel_choice.hpp"

namespace ks::app {

using UserArrayChoice = UserKernelChoice;

}  // namespace ks::app
