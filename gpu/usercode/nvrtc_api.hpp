#pragma once
// NVRTC, opened when a user's kernel is first compiled (core/runtime_library.hpp says why it is not linked):
// the functions nvrtc_compile.cpp calls, as pointers into the toolkit's libnvrtc. Built only where CMake found
// NVRTC, which provides nvrtc.h.
#include <nvrtc.h>

#include <string>

namespace ks::usercode {

struct NvrtcApi {
  decltype(&nvrtcVersion) version;
  decltype(&nvrtcGetErrorString) error_string;
  decltype(&nvrtcCreateProgram) create_program;
  decltype(&nvrtcDestroyProgram) destroy_program;
  decltype(&nvrtcSetFlowCallback) set_flow_callback;
  decltype(&nvrtcCompileProgram) compile_program;
  decltype(&nvrtcGetProgramLogSize) program_log_size;
  decltype(&nvrtcGetProgramLog) program_log;
  decltype(&nvrtcGetPTXSize) ptx_size;
  decltype(&nvrtcGetPTX) ptx;
  decltype(&nvrtcGetCUBINSize) cubin_size;
  decltype(&nvrtcGetCUBIN) cubin;
};

// The library opened on first use and kept for the process's life, as if linked. Throws a Device Error naming
// the library and how to get it where it cannot be opened; the next call tries again.
const NvrtcApi& nvrtc_api();

}  // namespace ks::usercode
