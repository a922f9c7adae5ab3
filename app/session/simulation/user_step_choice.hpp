#pragma once
// A user's own `step` kernel as the live simulation runs it instead of the built-in one (issue 24). The simulation
// it stands in for keeps its start, patterns, brush, grid and block; its CPU reference is what the kernel is
// checked against.
#include "session/user_kernel_choice.hpp"

namespace ks::app {

using UserStepChoice = UserKernelChoice;

}  // namespace ks::app
