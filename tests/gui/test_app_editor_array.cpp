// The kernel editor's Run with an `array` kernel in the real app under Xvfb, through its --script runner. The
// worker is a stand-in that answers as kernelscope-cli does without a GPU, so this runs the same everywhere: Run
// on a vecadd-like kernel while a stencil is chosen puts it in the Lab on vecadd's inputs, the run ends with the
// worker's words and the app keeps going, "Back to the built-in variants" ends it and the built-in runs again; a
// kernel no lab kernel fits is refused with words naming what each takes. What the kernel computes is checked on
// the GPU (tests/gpu/test_session_user_array_cuda.cpp).
#include <filesystem>
#include <fstream>

#include "gui_app_fixture.hpp"
#include "support/user_kernel_sources.hpp"

namespace ks::test {
namespace {

TEST_F(GuiApp, EditorRunOfAnArrayKernelGoesToTheLabAndSaysWhyItCannotRunHere) {
  const auto worker = path("worker.sh");
  std::ofstream(worker) << "#!/bin/sh\n"
                           "echo '{\"hello\":{\"ok\":false,\"device\":\"\",\"arch\":\"\",\"message\":"
                           "\"there is no CUDA device here\"}}'\n";
  std::filesystem::permissions(worker, std::filesystem::perms::owner_all);
  const auto add = path("add.cu");
  std::ofstream(add) << kVecaddRight;
  const auto three = path("three.cu");
  std::ofstream(three) << "// @family array\n"
                          "__global__ void three(const float* a, const float* b, const float* c, float* out, int n) {\n"
                          "  const int i = ks::global_index();\n"
                          "  if (i < n) out[i] = a[i] + b[i] + c[i];\n"
                          "}\n";
  const AppRun run = run_script("kernel box\n"
                                "editor open " + add.string() + "\n"
                                "editor print\n"
                                "editor run\n"
                                "print-lab\n"
                                "print-status\n"
                                "click-button Back to the built-in variants\n"
                                "run\n"
                                "print-lab\n"
                                "editor open " + three.string() + "\n"
                                "editor run\n"
                                "expect-error\n"
                                "print-lab\n"
                                "quit\n",
                                {"--backend", "cpu"}, {"KS_WORKER=" + worker.string()});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  EXPECT_NE(line_starting(run.out, "editor name=").find("Compiles for sm_90: vecadd_right, array family"),
            std::string::npos)
      << run.out;
  const std::vector<std::string> labs = lines_starting(run.out, "lab kernel=");
  ASSERT_EQ(labs.size(), 3u) << run.out;
  // Run moved the app from box to vecadd's Lab with the kernel in it; without a GPU the run says why.
  EXPECT_NE(labs[0].find("lab kernel=vecadd runs=0 last=none"), std::string::npos) << labs[0];
  EXPECT_NE(labs[0].find("user=add.cu error=cannot run your kernel: there is no CUDA device here"), std::string::npos) << labs[0];
  // Back to the built-in: its CPU variant runs and is checked.
  EXPECT_NE(labs[1].find("lab kernel=vecadd runs=1 last=cpu@"), std::string::npos) << labs[1];
  EXPECT_NE(labs[1].find("user=none"), std::string::npos) << labs[1];
  // Three inputs: no lab kernel takes them; the app says what each takes and nothing changes.
  const std::string refused = line_starting(run.out, "expected error: ");
  EXPECT_NE(refused.find("Run your kernel"), std::string::npos) << refused;
  EXPECT_NE(refused.find("no lab kernel takes 3 float inputs to an array of n"), std::string::npos) << refused;
  EXPECT_NE(refused.find("vecadd takes 2 input arrays (a, b), your kernel 3"), std::string::npos) << refused;
  EXPECT_NE(labs[2].find("user=none"), std::string::npos) << labs[2];
}

}  // namespace
}  // namespace ks::test
