#include "usercode/nvrtc_api.hpp"

#include "core/runtime_library.hpp"

namespace ks::usercode {

namespace {

// Kept mapped until the process ends, as a linked library is (stays_mapped: runtime_library.hpp says why).
struct LoadedNvrtc {
  RuntimeLibrary library;
  NvrtcApi api;

  LoadedNvrtc()
      : library(toolkit_library_candidates(KS_NVRTC_LIBRARY, KS_CUDA_LIBRARY_DIR), "NVRTC",
                "compiling your own kernel needs the CUDA toolkit's NVRTC (" KS_NVRTC_LIBRARY
                ") on the library path: install the CUDA toolkit, or add its lib64 folder to LD_LIBRARY_PATH",
                true) {
    api.version = library.function<decltype(api.version)>("nvrtcVersion");
    api.error_string = library.function<decltype(api.error_string)>("nvrtcGetErrorString");
    api.create_program = library.function<decltype(api.create_program)>("nvrtcCreateProgram");
    api.destroy_program = library.function<decltype(api.destroy_program)>("nvrtcDestroyProgram");
    api.set_flow_callback = library.function<decltype(api.set_flow_callback)>("nvrtcSetFlowCallback");
    api.compile_program = library.function<decltype(api.compile_program)>("nvrtcCompileProgram");
    api.program_log_size = library.function<decltype(api.program_log_size)>("nvrtcGetProgramLogSize");
    api.program_log = library.function<decltype(api.program_log)>("nvrtcGetProgramLog");
    api.ptx_size = library.function<decltype(api.ptx_size)>("nvrtcGetPTXSize");
    api.ptx = library.function<decltype(api.ptx)>("nvrtcGetPTX");
    api.cubin_size = library.function<decltype(api.cubin_size)>("nvrtcGetCUBINSize");
    api.cubin = library.function<decltype(api.cubin)>("nvrtcGetCUBIN");
  }
};

}  // namespace

const NvrtcApi& nvrtc_api() {
  // Loaded once per process, like a linked library; a failed load throws and leaves it to the next call.
  static const LoadedNvrtc loaded;
  return loaded.api;
}

}  // namespace ks::usercode
