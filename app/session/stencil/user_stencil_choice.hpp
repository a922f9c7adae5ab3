#pragma once
// A user's own stencil kernel as the image document runs it instead of the built-in one: the compiled kernel
// (from the editor, a file or a playlist) and the values of its declared parameters (user_kernel_choice.hpp). The
// built-in kernel chosen in the sidebar stays chosen: its border mode is the user kernel's, and its CPU
// reference is what the user kernel's result is checked against.
#include "session/user_kernel_choice.hpp"

namespace ks::app {

using UserStencilChoice = UserKernelChoice;

}  // namespace ks::app
