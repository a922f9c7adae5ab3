// A user's array kernel in the app's document without a GPU (the kernels compile through NVRTC; the worker is a
// stand-in that says it has no GPU, so these behave the same on every machine): the editor's Run puts it in the Lab
// on a lab kernel that fits (the chosen one, or the first that fits, with a notice), refuses one that no lab kernel
// fits or of another family with words and changes nothing, a run without a GPU ends with the worker's message and
// leaves the session working, choosing another kernel keeps it only where it fits, and the way back runs the
// built-in again. What it computes is checked on the GPU (tests/gpu/test_session_user_array_cuda.cpp).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "cpu/session_support.hpp"
#include "session/lab/lab_document.hpp"
#include "session/session.hpp"
#include "support/test_support.hpp"
#include "support/user_kernel_compiled.hpp"
#include "support/user_kernel_sources.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::app {
namespace {

using session_test::cpu_options;

UserArrayChoice user_choice(const std::string& name, const std::string& source) {
  auto k = test::compiled_kernel(name, source);
  return {k, name, std::vector<double>(k->declarations.parameters.size())};
}

// A worker that answers as kernelscope-cli does on a machine without a GPU.
class NoGpuWorker {
 public:
  NoGpuWorker() {
    const auto script = dir_ / "worker.sh";
    std::ofstream(script) << "#!/bin/sh\n"
                             "echo '{\"hello\":{\"ok\":false,\"device\":\"\",\"arch\":\"\",\"message\":"
                             "\"there is no CUDA device here\"}}'\n";
    std::filesystem::permissions(script, std::filesystem::perms::owner_all);
    ::setenv("KS_WORKER", script.c_str(), 1);
  }
  ~NoGpuWorker() { ::unsetenv("KS_WORKER"); }

 private:
  test::TempDir dir_;
};

std::string notices_text(Session& s) {
  std::string text;
  for (const auto& n : s.take_notices()) text += n.text + "\n";
  return text;
}

TEST(SessionUserArray, RunFromAStencilGoesToTheLabOnAFittingKernelAndSaysWhyItCannotRunWithoutAGpu) {
  KS_REQUIRE_NVRTC();
  NoGpuWorker worker;
  Session s(cpu_options());
  s.select_kernel("box");
  notices_text(s);
  s.use_user_array_kernel(user_choice("mine.cu", test::kVecaddRight));
  EXPECT_TRUE(s.in_lab());
  EXPECT_EQ(s.kernel().id, "vecadd");
  ASSERT_TRUE(s.user_array_kernel());
  EXPECT_EQ(s.user_array_kernel()->file_name, "mine.cu");
  EXPECT_NE(notices_text(s).find("your kernel (2 float inputs to an array of n) runs in the Lab, on vecadd's inputs"),
            std::string::npos);
  s.wait_idle();  // Run ran it at once
  ASSERT_TRUE(s.lab().last_error());
  EXPECT_NE(s.lab().last_error()->full_message().find("there is no CUDA device here"), std::string::npos)
      << s.lab().last_error()->full_message();
  EXPECT_FALSE(s.lab().last_run());
  EXPECT_THROW(s.run_now(), Error);  // the Lab's Run runs it again, with the same answer

  // The way back: the built-in runs (its CPU variant here) and is checked as before.
  s.use_user_array_kernel(std::nullopt);
  EXPECT_FALSE(s.user_array_kernel());
  s.run_now();
  ASSERT_TRUE(s.lab().last_run());
  EXPECT_EQ(s.lab().last_run()->report.variant, "cpu");
  EXPECT_FALSE(s.lab().last_error());
}

TEST(SessionUserArray, AChosenLabKernelThatDoesNotFitGivesWayToOneThatDoes) {
  KS_REQUIRE_NVRTC();
  NoGpuWorker worker;
  Session s(cpu_options());
  s.select_kernel("matmul");
  notices_text(s);
  s.use_user_array_kernel(user_choice("sum.cu", test::kernel_template("reduce_sum.cu")));
  EXPECT_EQ(s.kernel().id, "reduce");
  EXPECT_NE(notices_text(s).find("your kernel (1 float input to a scalar) does not fit matmul: it runs on reduce's "
                                 "inputs"),
            std::string::npos);
  s.wait_idle();

  // saxpy fits a two-array kernel, so it stays chosen; reduce does not, so the kernel stops there.
  s.select_kernel("saxpy");
  EXPECT_FALSE(s.user_array_kernel());  // the scalar kernel did not fit saxpy
  EXPECT_NE(notices_text(s).find("sum.cu stopped: saxpy takes 2 input arrays (x, y), your kernel 1; the built-in kernel runs again"),
            std::string::npos);
  s.use_user_array_kernel(user_choice("add.cu", test::kVecaddRight));
  EXPECT_EQ(s.kernel().id, "saxpy");
  s.wait_idle();
  s.select_kernel("vecadd");
  EXPECT_TRUE(s.user_array_kernel());
  s.select_kernel("box");  // no lab kernel: it stops
  EXPECT_FALSE(s.user_array_kernel());
  EXPECT_NE(notices_text(s).find("add.cu stopped: box is not a lab kernel"), std::string::npos);
}

TEST(SessionUserArray, KernelsThatNoLabKernelFitsOrOfAnotherFamilyAreRefusedAndNothingChanges) {
  KS_REQUIRE_NVRTC();
  NoGpuWorker worker;
  Session s(cpu_options());
  s.select_kernel("box");
  const std::string three = test::usage_error([&] {
    s.use_user_array_kernel(user_choice("three.cu", R"(// @family array
__global__ void three(const float* a, const float* b, const float* c, float* out, int n) {
  const int i = ks::global_index();
  if (i < n) out[i] = a[i] + b[i] + c[i];
}
)"));
  });
  EXPECT_NE(three.find("no lab kernel takes 3 float inputs to an array of n"), std::string::npos) << three;
  EXPECT_NE(three.find("vecadd takes 2 input arrays (a, b), your kernel 3"), std::string::npos) << three;
  EXPECT_EQ(s.kernel().id, "box");
  EXPECT_FALSE(s.user_array_kernel());

  const std::string stencil = test::usage_error([&] {
    s.use_user_array_kernel(user_choice("smooth.cu", test::kSmoothU8WithBias));
  });
  EXPECT_NE(stencil.find("not of the array family"), std::string::npos) << stencil;
  EXPECT_EQ(s.kernel().id, "box");

  // int arrays: the lab's 1-D kernels hold floats (and sort unsigned keys).
  const std::string ints = test::usage_error([&] {
    s.use_user_array_kernel(user_choice("ints.cu", R"(// @family array
__global__ void ints(const int* a, const int* b, int* out, int n) {
  const int i = ks::global_index();
  if (i < n) out[i] = a[i] + b[i];
}
)"));
  });
  EXPECT_NE(ints.find("vecadd's arrays are float; your kernel takes int"), std::string::npos) << ints;
  EXPECT_FALSE(s.in_lab());
}

}  // namespace
}  // namespace ks::app

namespace ks::app {
namespace {

// The Lab's check can run against any built-in variant of the lab kernel: one it does not have, or a GPU one on a
// machine without CUDA, is refused in words and the check stays against the CPU reference.
TEST(SessionUserArray, TheCheckAgainstABuiltInVariantRefusesOnesThatCannotRunHere) {
  Session s(cpu_options());
  s.select_kernel("vecadd");
  EXPECT_EQ(s.lab().user_reference(), "cpu");
  try {
    s.lab().set_user_reference("tiled");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(e.full_message().find("vecadd has no variant 'tiled'"), std::string::npos) << e.full_message();
    EXPECT_NE(e.full_message().find("cpu, naive, gridstride, vector4"), std::string::npos) << e.full_message();
  }
  try {
    s.lab().set_user_reference("vector4");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(e.full_message().find("vecadd:vector4 runs on the GPU, and CUDA is not usable here"),
              std::string::npos)
        << e.full_message();
  }
  EXPECT_EQ(s.lab().user_reference(), "cpu");
  s.lab().set_user_reference("cpu");
  EXPECT_EQ(s.lab().user_reference(), "cpu");
}

}  // namespace
}  // namespace ks::app
