// A user's own stencil kernel in the desktop app's document (GPU machine; skipped without a device): it runs in
// the worker process instead of the chosen built-in, its result is what the display shows and the CPU reference of
// the built-in checks it, its declared parameters change the result, a fault leaves the session running with its
// message, and the way back gives the built-in's result again.
#include <gtest/gtest.h>

#include <cstdlib>

#include "session/session.hpp"
#include "stencil/cpu/stencil_cpu.hpp"
#include "stencil/stencil_plan.hpp"
#include "support/test_support.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::app {
namespace {

const char kSmoothU8[] = R"(// @family stencil
// @param bias int [0, 10] = 0
__global__ void smooth_u8(ks::InImage<unsigned char> in, ks::OutImage<unsigned char> out, int bias) {
  const int x = ks::global_x(), y = ks::global_y();
  if (!out.contains(x, y)) return;
  for (int c = 0; c < in.channels; ++c) {
    int sum = 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) sum += in.at(x + dx, y + dy, c);
    out.set(x, y, c, static_cast<unsigned char>(min(255, (sum + 4) / 9 + bias)));
  }
}
)";

const char kFault[] = R"(// @family stencil
__global__ void fault(ks::InImage<unsigned char> in, ks::OutImage<unsigned char> out) {
  out.data[-(1ll << 40) + ks::global_x()] = 1;
}
)";

UserStencilChoice user_choice(const std::string& name, const char* source, std::vector<double> params) {
  usercode::CompileRequest r;
  r.file_name = name;
  r.source = source;
  r.options.arch = "sm_90";
  auto k = std::make_shared<usercode::CompiledKernel>(usercode::compile_user_kernel(r));
  EXPECT_TRUE(k->ok()) << k->module->log;
  return {k, name, std::move(params)};
}

void wait_for_reference(Session& s) {
  for (int i = 0; i < 600 && !s.cpu_reference(); ++i) {
    s.poll();
    s.wait_idle();
  }
}

TEST(SessionUserKernelCuda, RunsInsteadOfTheBuiltInAndIsCheckedAgainstItsCpuReference) {
  KS_REQUIRE_GPU();
  ::setenv("KS_WORKER", KS_CLI_PATH, 1);
  Session s;
  s.open_sample();
  s.set_element_type(ElemType::U8);
  s.set_backend(Backend::Cuda);
  s.select_kernel("box");
  s.set_param("radius", "1");
  s.use_user_kernel(user_choice("smooth_u8.cu", kSmoothU8, {0}));
  s.run_now();
  ASSERT_TRUE(s.stencil().last_report());
  EXPECT_EQ(s.stencil().last_report()->variant, "yours");
  EXPECT_EQ(s.stencil().last_report()->kernel, "smooth_u8.cu");
  ASSERT_NE(s.stencil().output(), nullptr);
  wait_for_reference(s);
  ASSERT_TRUE(s.cpu_reference());
  EXPECT_TRUE(s.cpu_reference()->identical) << s.cpu_reference()->max_abs_difference;

  // The declared parameter reaches the kernel: +3 everywhere below 253.
  s.stencil().set_user_param(0, 3);
  s.run_now();
  wait_for_reference(s);
  ASSERT_TRUE(s.cpu_reference());
  EXPECT_FALSE(s.cpu_reference()->identical);
  EXPECT_EQ(s.cpu_reference()->max_abs_difference, 3);
  EXPECT_THROW(s.stencil().set_user_param(0, 11), Error);  // outside [0, 10]: refused, never clamped

  // A fault: the session keeps running with the message; the next good run works.
  s.use_user_kernel(user_choice("fault.cu", kFault, {}));
  EXPECT_THROW(s.run_now(), Error);
  s.use_user_kernel(user_choice("smooth_u8.cu", kSmoothU8, {0}));
  s.run_now();
  EXPECT_EQ(s.stencil().last_report()->variant, "yours");

  // Back to the built-in: its own variant and result again.
  s.use_user_kernel(std::nullopt);
  s.run_now();
  EXPECT_NE(s.stencil().last_report()->variant, "yours");
}

}  // namespace
}  // namespace ks::app
