#pragma once
// Border modes, with OpenCV's meaning, as one index remap shared by the CPU and CUDA code so that both read
// exactly the same pixels (core/border_remap.hpp, which users' stencil kernels get through NVRTC too), and their
// names for the command line and the app.
#include <string>

#include "core/border_remap.hpp"

namespace ks {

const char* to_string(Border b) noexcept;
Border border_from_string(const std::string& s);  // usage Error listing the modes otherwise

}  // namespace ks
