#pragma once
// Skipping a test of users' kernels where this build has no NVRTC (in this process; a test of the CLI asks the CLI
// instead: KS_REQUIRE_CLI_NVRTC in tests/cli/cli_runner.hpp).
#include <gtest/gtest.h>

#include "usercode/nvrtc_compile.hpp"

#define KS_REQUIRE_NVRTC()                                                            \
  do {                                                                                \
    if (!::ks::usercode::nvrtc_available()) GTEST_SKIP() << "this build has no NVRTC"; \
  } while (0)
