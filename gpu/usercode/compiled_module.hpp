#pragma once
// One compile of a user's source: what NVRTC said (at the user's lines) and, when it succeeded, what it made: the
// kernels' facts, the PTX and the CUBIN (kept so that a later run loads it with cuModuleLoadData without compiling
// again).
#include <string>
#include <vector>

#include "usercode/diagnostics.hpp"
#include "usercode/kernel_facts.hpp"

namespace ks::usercode {

struct CompileOptions {
  std::string arch = "sm_90";      // sm_XX: a CUBIN for that GPU, with ptxas's facts
  bool use_pch = false;            // NVRTC's automatic precompiled header for the prelude (docs/PERF.md)
  // -lineinfo: the PTX's .loc directives and the CUBIN's line table, which the listings (listing.hpp) map to the
  // user's lines. It changes no instruction (tests/usercode/test_usercode_listing.cpp compares).
  bool line_info = true;
  std::vector<std::string> extra;  // more NVRTC options, e.g. "-DRADIUS=2"
};

struct CompiledModule {
  bool ok = false;
  std::string file_name;  // as in #line and the diagnostics
  std::string log;        // NVRTC's log as it came (ptxas's report included)
  std::vector<Diagnostic> diagnostics;
  std::vector<KernelFacts> kernels;  // every __global__ function compiled, in ptxas's order
  std::string ptx;
  std::vector<char> cubin;
  double compile_ms = 0;  // nvrtcCompileProgram's wall time
  std::vector<std::string> options;  // what NVRTC was given
};

}  // namespace ks::usercode
