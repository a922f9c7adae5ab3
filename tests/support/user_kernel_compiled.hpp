#pragma once
// What the tests of users' kernels in the app's document share: a kernel compiled as the editor compiles it (for
// sm_90, which the worker recompiles for nothing else: the GPU machine's is sm_90), a template's text, and skipping
// where the build has no NVRTC.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "usercode/nvrtc_compile.hpp"
#include "usercode/source_text.hpp"
#include "usercode/user_kernel.hpp"
#include "support/require_nvrtc.hpp"

namespace ks::test {

inline std::shared_ptr<const usercode::CompiledKernel> compiled_kernel(const std::string& name,
                                                                       const std::string& source) {
  usercode::CompileRequest r;
  r.file_name = name;
  r.source = source;
  r.options.arch = "sm_90";
  auto k = std::make_shared<usercode::CompiledKernel>(usercode::compile_user_kernel(r));
  EXPECT_TRUE(k->ok()) << (k->module ? k->module->log : std::string("no module"));
  return k;
}

// The text of a template of assets/kernels ("reduce_sum.cu").
inline std::string kernel_template(const std::string& file) {
  return usercode::read_kernel_source(std::filesystem::path(KS_SOURCE_DIR) / "assets/kernels" / file);
}

}  // namespace ks::test
