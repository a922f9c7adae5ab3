// The kernel editor's Run for a `step` kernel in the real app under Xvfb (`editor run`, as a click on Run): the
// kernel steps the live simulation its cells fit, is checked against the built-in on the CPU, and "Back to the
// built-in steps" returns. No GPU runs here, and the test says which part ran where: a fake worker
// (tests/support/fake_worker.hpp, through $KS_WORKER) answers each step with the state it was given, so the app's
// whole path around the worker runs — the editor, the session, the simulation, the check (the built-in Life on
// the CPU), the sidebar's button — but not the user's kernel itself; tests/gpu/test_session_user_step_cuda.cpp runs
// that on a GPU. The real worker is tried too: without a GPU it says so and the app goes on.
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gui_app_fixture.hpp"
#include "support/fake_worker.hpp"

namespace ks::test {
namespace {

const std::string kLifeTemplate = (std::filesystem::path(KS_SOURCE_DIR) / "assets/kernels/life_step.cu").string();

struct WorkerFromEnvironment {
  explicit WorkerFromEnvironment(const std::string& path) { ::setenv("KS_WORKER", path.c_str(), 1); }
  ~WorkerFromEnvironment() { ::unsetenv("KS_WORKER"); }
};

TEST_F(GuiApp, RunningAStepKernelStepsLifeChecksItAndTheWayBackIsTheBuiltIn) {
  const FakeWorker fake(std::string(kFakeHello) + "\n" + kFakeIdentityLoop);
  const WorkerFromEnvironment env(fake.path().string());
  const AppRun run = run_script("editor open " + kLifeTemplate +
                                    "\neditor run\nsim pause\nsim grid 33x17\nparam density=0\nsim print\n"
                                    "pattern blinker\nsim print\nsim step 2\nsim check 2\nsim print\n"
                                    "editor go-to 1 1\neditor type // edited\\n\nsim print\n"
                                    "click-button Back to the built-in steps\nsim step 1\nsim print\nquit\n",
                                {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::vector<std::string> states = lines_starting(run.out, "sim kernel=");
  ASSERT_EQ(states.size(), 5u) << run.out;
  // Run chose life (the template keeps u8 cells); an empty grid is what a kernel that changes nothing gets right.
  EXPECT_NE(states[0].find("sim kernel=life generation=0 playing=off frame=33x17"), std::string::npos) << states[0];
  EXPECT_NE(states[0].find("yours=life_step.cu"), std::string::npos) << states[0];
  EXPECT_NE(states[0].find("check=\"1 step from generation 0 against life on the CPU: matches"), std::string::npos)
      << states[0];
  // A blinker turns on the CPU and not here: 4 cells differ.
  EXPECT_NE(states[1].find("check=\"1 step from generation 0 against life on the CPU: differs: 4 of 561 pixels"),
            std::string::npos)
      << states[1];
  // Two steps through the worker; two steps from there bring the CPU's blinker back where this one stays.
  EXPECT_NE(states[2].find("generation=2"), std::string::npos) << states[2];
  EXPECT_NE(states[2].find("population=3 steps=2"), std::string::npos) << states[2];
  EXPECT_NE(states[2].find("check=\"2 steps from generation 2 against life on the CPU: matches"), std::string::npos)
      << states[2];
  // An edit that compiles replaces the kernel at once; the state carries on from generation 2 and is checked again.
  EXPECT_NE(states[3].find("generation=2"), std::string::npos) << states[3];
  EXPECT_NE(states[3].find("yours=life_step.cu"), std::string::npos) << states[3];
  EXPECT_NE(states[3].find("check=\"1 step from generation 2 against life on the CPU: differs: 4 of 561"),
            std::string::npos)
      << states[3];
  // The built-in's own step turns the blinker: still 3 cells, no kernel of yours.
  EXPECT_NE(states[4].find("generation=3"), std::string::npos) << states[4];
  EXPECT_EQ(states[4].find("yours="), std::string::npos) << states[4];
  EXPECT_EQ(states[4].find("error="), std::string::npos) << states[4];
}

TEST_F(GuiApp, RunningAnF32StepKernelStepsHeat) {
  const FakeWorker fake(std::string(kFakeHello) + "\n" + kFakeIdentityLoop);
  const WorkerFromEnvironment env(fake.path().string());
  const auto kernel = path("heat.cu");
  std::ofstream(kernel) << "// @family step\n"
                           "__global__ void cool(const float* state, float* next, int width, int height) {\n"
                           "  const int x = ks::global_x(), y = ks::global_y();\n"
                           "  if (x < width && y < height) next[y * width + x] = 0.5f * state[y * width + x];\n"
                           "}\n";
  const AppRun run = run_script("kernel grayscott\nsim pause\neditor open " + kernel.string() +
                                    "\neditor run\nsim pause\nsim print\nprint-status\nquit\n",
                                {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::string state = line_starting(run.out, "sim kernel=");
  EXPECT_NE(state.find("sim kernel=heat"), std::string::npos) << state;
  EXPECT_NE(state.find("yours=heat.cu"), std::string::npos) << state;
  EXPECT_NE(state.find("against heat on the CPU"), std::string::npos) << state;
}

TEST_F(GuiApp, WithTheRealWorkerAStepKernelRunsOnAGpuOrTheAppSaysItNeedsOne) {
  // The CLI beside the app is the worker ($KS_WORKER unset).
  const AppRun run = run_script("editor open " + kLifeTemplate + "\neditor run\nsim pause\nsim grid 65x31\nsim print\n"
                                "click-button Back to the built-in steps\nsim step 1\nsim print\nquit\n",
                                {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::vector<std::string> states = lines_starting(run.out, "sim kernel=");
  ASSERT_EQ(states.size(), 2u) << run.out;
  if (gpu_available()) {
    EXPECT_NE(states[0].find("check=\"1 step from generation 0 against life on the CPU: matches"), std::string::npos)
        << states[0];
  } else {
    EXPECT_NE(states[0].find("error=\"cannot run your kernel:"), std::string::npos) << states[0];
  }
  EXPECT_NE(states[1].find("generation=1"), std::string::npos) << states[1];
  EXPECT_EQ(states[1].find("error="), std::string::npos) << states[1];
}

}  // namespace
}  // namespace ks::test
