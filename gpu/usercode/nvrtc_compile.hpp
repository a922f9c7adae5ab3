#pragma once
// The user's source through NVRTC: the prelude (prelude/ks_prelude.cuh, embedded at build time) is included
// first, then `#line 1 "FILE"` so that every message and the PTX's line table name the user's own lines.
// Built with NVRTC where the CUDA toolkit is found (nvrtc_compile.cpp), else a stub that says it is needed
// (nvrtc_compile_nonvrtc.cpp). Needs no GPU; a Device Error names libnvrtc where the build has NVRTC but this
// machine cannot open it.
#include <atomic>
#include <string>
#include <string_view>

#include "usercode/compiled_module.hpp"

namespace ks::usercode {

// Whether this build has NVRTC and its library (libnvrtc, opened at run time: nvrtc_api.hpp) can be opened here.
bool nvrtc_available() noexcept;
std::string nvrtc_version();  // "13.0"; "" without NVRTC

// The text NVRTC compiles: the prelude's include, the #line, then `source` unchanged.
std::string program_text(std::string_view source, const std::string& file_name);

// A failed compile comes back with ok false and its diagnostics. Throws a Usage Error for an option NVRTC refuses
// (an unknown --arch), a Cancelled Error when `cancel` became true during the compile, a Device Error "needs NVRTC"
// without NVRTC.
CompiledModule compile_with_nvrtc(std::string_view source, const std::string& file_name, const CompileOptions& options,
                                  const std::atomic<bool>* cancel = nullptr);

}  // namespace ks::usercode
