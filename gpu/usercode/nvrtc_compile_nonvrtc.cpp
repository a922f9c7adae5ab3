// Built where CMake found no NVRTC (CUDA toolkit): compiling a user's kernel says what it needs.
#include "core/error.hpp"
#include "usercode/nvrtc_compile.hpp"

namespace ks::usercode {

bool nvrtc_available() noexcept { return false; }
std::string nvrtc_version() { return {}; }

CompiledModule compile_with_nvrtc(std::string_view, const std::string&, const CompileOptions&,
                                  const std::atomic<bool>*) {
  throw Error(ErrorKind::Device, "compiling your own kernel needs NVRTC (CUDA toolkit), and this build has none",
              "install the CUDA toolkit (its libnvrtc) and build kernelscope again");
}

}  // namespace ks::usercode
