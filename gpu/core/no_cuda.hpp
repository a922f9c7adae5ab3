#pragma once
// The one error of a build without the CUDA backend. Such a build compiles a *_nocuda.cpp stub in place of each
// family's .cu files (gpu/CMakeLists.txt), so that callers link; every stub that is reached says the same thing.
#include <string>

namespace ks {

inline constexpr char kNoCudaBackend[] = "this build of kernelscope has no CUDA backend";
inline constexpr char kNoCudaHint[] = "use --backend cpu, or rebuild on a machine with the CUDA toolkit";

// Throws a Device error: kNoCudaBackend (then ", " and `detail` when given, e.g. "so there is no device
// image"), with kNoCudaHint.
[[noreturn]] void throw_no_cuda(const std::string& detail = {});

}  // namespace ks
