#pragma once
// What the lab's *_nocuda.cpp stubs throw: the build has no CUDA backend, the cpu variant still runs.
#include "core/error.hpp"

namespace ks::lab {

[[noreturn]] inline void throw_no_cuda() {
  throw Error(ErrorKind::Device, "this build of kernelscope has no CUDA backend",
              "use --backend cpu (the cpu variant), or rebuild with the CUDA toolkit");
}

}  // namespace ks::lab
