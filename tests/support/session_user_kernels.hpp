#pragma once
// A user's stencil kernel compiled for the app's session (Session::use_user_kernel), for the session's GPU tests.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "session/stencil/user_stencil_choice.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::test {

inline app::UserStencilChoice user_choice(const std::string& name, const char* source, std::vector<double> params) {
  usercode::CompileRequest r;
  r.file_name = name;
  r.source = source;
  r.options.arch = "sm_90";
  auto k = std::make_shared<usercode::CompiledKernel>(usercode::compile_user_kernel(r));
  EXPECT_TRUE(k->ok()) << k->module->log;
  return {k, name, std::move(params)};
}

}  // namespace ks::test
