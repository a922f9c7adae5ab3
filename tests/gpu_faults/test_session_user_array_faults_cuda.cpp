// A user's array kernel that never ends or faults, run in the app's Lab (alone on the GPU, and only with
// KS_GPU_FAULT_TESTS=1, like the other faults): the watchdog stops it or the fault comes back in words, the session
// keeps running with the message, and the next good kernel runs and is checked.
#include <gtest/gtest.h>

#include <cstdlib>

#include "lab/lab_size.hpp"
#include "session/lab/lab_document.hpp"
#include "session/session.hpp"
#include "support/test_support.hpp"
#include "support/user_kernel_compiled.hpp"
#include "support/user_kernel_sources.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::app {
namespace {

TEST(SessionUserArrayFaultsCuda, AnEndlessKernelIsStoppedAndTheNextOneRuns) {
  KS_REQUIRE_GPU_FAULTS();
  ::setenv("KS_WORKER", KS_CLI_PATH, 1);
  Session s;
  s.select_kernel("vecadd");
  s.set_backend(Backend::Cuda);
  s.lab().set_size(lab::LabSize::elements(1023));
  s.use_user_array_kernel(UserArrayChoice{test::compiled_kernel("endless.cu", R"(// @family array
__global__ void endless(const float* a, const float* b, float* out, int n) {
  for (;;) if (clock64() < 0) break;
  out[ks::global_index()] = 1.f;
}
)"), "endless.cu", {}});
  s.wait_idle();
  ASSERT_TRUE(s.lab().last_error());
  EXPECT_NE(s.lab().last_error()->full_message().find("the kernel did not finish"), std::string::npos)
      << s.lab().last_error()->full_message();
  s.use_user_array_kernel(UserArrayChoice{test::compiled_kernel("right.cu", test::kVecaddRight), "right.cu", {}});
  s.wait_idle();
  EXPECT_FALSE(s.lab().last_error());
  ASSERT_TRUE(s.lab().user_check());
  EXPECT_TRUE(s.lab().user_check()->comparison.matches());
}

TEST(SessionUserArrayFaultsCuda, AFaultLeavesTheSessionRunningAndTheNextRunWorks) {
  KS_REQUIRE_GPU_FAULTS();
  ::setenv("KS_WORKER", KS_CLI_PATH, 1);
  Session s;
  s.select_kernel("vecadd");
  s.set_backend(Backend::Cuda);
  s.lab().set_size(lab::LabSize::elements(4097));
  s.use_user_array_kernel(UserArrayChoice{test::compiled_kernel("fault.cu", R"(// @family array
__global__ void fault(const float* a, const float* b, float* out, int n) {
  out[ks::global_index() - (1ll << 40)] = 1.f;
}
)"), "fault.cu", {}});
  s.wait_idle();
  ASSERT_TRUE(s.lab().last_error());
  EXPECT_NE(s.lab().last_error()->full_message().find("illegal address"), std::string::npos)
      << s.lab().last_error()->full_message();
  s.use_user_array_kernel(UserArrayChoice{test::compiled_kernel("right.cu", test::kVecaddRight), "right.cu", {}});
  s.wait_idle();
  ASSERT_TRUE(s.lab().user_check());
  EXPECT_TRUE(s.lab().user_check()->comparison.matches());
  EXPECT_FALSE(s.display_frame().interop_refused.empty()) << "after the fault the display goes through the host";
}

}  // namespace
}  // namespace ks::app
