// A user's `step` kernel stepping the app's live simulation on a GPU (skipped without a device): the Life template
// run in the worker process agrees with the built-in Life on odd grids (1x1, 1023x7, 257x129) step for step and
// after many steps, a wrong rule differs and its first difference is named, a heat kernel agrees with periodic heat,
// a fault leaves the session running with its words and the next kernel runs, and the way back gives the
// built-in's steps again. tests/cpu/test_session_user_step.cpp covers the session's side without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "inputs/step_reference.hpp"
#include "registry/registry.hpp"
#include "session/session.hpp"
#include "support/test_support.hpp"
#include "support/user_kernel_compiled.hpp"
#include "support/user_kernel_sources.hpp"
#include "usercode/source_text.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::app {
namespace {

const char kFault[] = R"(// @family step
__global__ void fault(const unsigned char* state, unsigned char* next, int width, int height) {
  next[-(1ll << 40) + ks::global_x()] = 1;
}
)";

UserStepChoice choice(const std::string& name, const std::string& source, std::vector<double> params) {
  return {test::compiled_kernel(name, source), name, std::move(params)};  // for sm_90, the worker's H100 or H200
}

UserStepChoice life_template() {
  return choice("life_step.cu",
                usercode::read_kernel_source(std::filesystem::path(KS_SOURCE_DIR) / "assets/kernels/life_step.cu"),
                {3});
}

Session::Options options() {
  Session::Options o;
  o.cpu_threads = 2;
  o.repeat = 2;
  return o;
}

// The built-in on the CPU backend (any grid size runs there), paused, from a random fill.
void start_life(Session& s, int w, int h) {
  s.set_backend(Backend::Cpu);
  s.select_kernel("life");
  s.simulation().set_playing(false);
  s.simulation().set_grid_size(w, h);
  s.set_param("seed", "11");
  s.wait_idle();
}

const usercode::Comparison& checked(Session& s, long long steps) {
  s.simulation().check_user_steps(steps);
  s.wait_idle();
  if (s.simulation().error()) ADD_FAILURE() << s.simulation().error()->full_message();
  if (!s.simulation().user_check()) throw std::runtime_error("no check came back");
  EXPECT_EQ(s.simulation().user_check()->steps, steps);
  return s.simulation().user_check()->comparison;
}

struct Grid {
  int width, height;
};

TEST(SessionUserStepCuda, TheLifeTemplateStepsLikeTheBuiltInLifeOnOddGrids) {
  KS_REQUIRE_GPU();
  ::setenv("KS_WORKER", KS_CLI_PATH, 1);
  for (const Grid g : {Grid{1, 1}, Grid{1023, 7}, Grid{257, 129}}) {
    SCOPED_TRACE(std::to_string(g.width) + "x" + std::to_string(g.height));
    Session s(options());
    start_life(s, g.width, g.height);
    s.use_user_step_kernel(life_template());
    s.wait_idle();
    ASSERT_FALSE(s.simulation().error()) << s.simulation().error()->full_message();
    EXPECT_EQ(s.simulation().report()->variant, "yours");
    // The first step, checked when it started; then 25 steps from generation 0; then, after 40 steps of the
    // kernel on screen, 25 more from there.
    ASSERT_TRUE(s.simulation().user_check());
    EXPECT_TRUE(s.simulation().user_check()->comparison.matches())
        << usercode::comparison_summary(s.simulation().user_check()->comparison);
    EXPECT_TRUE(checked(s, 25).matches()) << usercode::comparison_summary(s.simulation().user_check()->comparison);
    const Image start = s.simulation().frame().host ? *s.simulation().frame().host : Image();
    s.simulation().step(40);
    s.wait_idle();
    EXPECT_EQ(s.simulation().generation(), 40);
    EXPECT_TRUE(checked(s, 25).matches()) << usercode::comparison_summary(s.simulation().user_check()->comparison);
    // The frame after 40 of the kernel's steps is the built-in's 40th generation.
    ASSERT_FALSE(start.empty());
    Runtime runtime(Runtime::Options{2});
    SimulationRequest r;
    r.kernel = "life";
    r.params = s.params();
    r.backend = Backend::Cpu;
    const Image expected = inputs::builtin_steps(runtime, r, inputs::step_state_of({start}, sim::SimKind::Life), 40);
    ASSERT_TRUE(s.simulation().frame().host);
    const Image shown = inputs::step_state_of({*s.simulation().frame().host}, sim::SimKind::Life);
    EXPECT_TRUE(std::equal(shown.elements<std::uint8_t>().begin(), shown.elements<std::uint8_t>().end(),
                           expected.elements<std::uint8_t>().begin()));
    // Timed per step against the copy bandwidth, like the built-in.
    EXPECT_GT(s.simulation().timing().stats.median_ms, 0);
    EXPECT_GT(s.simulation().report()->copy_bandwidth_gbps, 0);
  }
}

TEST(SessionUserStepCuda, AWrongRuleDiffersAndAHeatKernelAgreesWithHeat) {
  KS_REQUIRE_GPU();
  ::setenv("KS_WORKER", KS_CLI_PATH, 1);
  Session s(options());
  start_life(s, 257, 129);
  s.use_user_step_kernel(choice("highlife.cu", test::kLifeBornOn3Or6, {}));
  s.wait_idle();
  const usercode::Comparison& c = checked(s, 20);
  EXPECT_FALSE(c.matches());
  EXPECT_EQ(c.max_abs_diff, 1);
  ASSERT_TRUE(c.first);
  s.simulation().set_show_difference(true);
  ASSERT_NE(s.display_frame().output, nullptr);
  EXPECT_EQ(s.display_frame().output->channels(), 4);

  s.select_kernel("heat");
  s.set_param("boundary", "periodic");
  s.simulation().set_playing(false);
  s.simulation().set_grid_size(101, 37);
  s.use_user_step_kernel(choice("heat.cu", test::kHeatPeriodic, {0.2}));
  s.wait_idle();
  ASSERT_FALSE(s.simulation().error()) << s.simulation().error()->full_message();
  EXPECT_TRUE(checked(s, 50).matches()) << usercode::comparison_summary(s.simulation().user_check()->comparison);
}

// The state stays on the worker's GPU between steps and comes home for each frame: steps in several requests, a
// brush stroke in between (painted on the state brought home, then uploaded again) and more steps give the
// built-in's generations from the same states.
TEST(SessionUserStepCuda, StepsOnTheStateKeptInTheWorkerAroundABrushStrokeEqualTheBuiltIn) {
  KS_REQUIRE_GPU();
  ::setenv("KS_WORKER", KS_CLI_PATH, 1);
  Session s(options());
  start_life(s, 257, 129);
  s.use_user_step_kernel(life_template());
  s.wait_idle();
  ASSERT_FALSE(s.simulation().error()) << s.simulation().error()->full_message();
  Runtime runtime(Runtime::Options{2});
  SimulationRequest r;
  r.kernel = "life";
  r.params = s.params();
  r.backend = Backend::Cpu;
  const auto shown = [&] {
    EXPECT_TRUE(s.simulation().frame().host);
    return inputs::step_state_of({*s.simulation().frame().host}, sim::SimKind::Life);
  };
  const auto equal = [](const Image& a, const Image& b) {
    return a.shape() == b.shape() && std::equal(a.elements<std::uint8_t>().begin(), a.elements<std::uint8_t>().end(),
                                                b.elements<std::uint8_t>().begin());
  };
  Image state = shown();
  for (const int steps : {7, 1, 30}) {
    s.simulation().step(steps);
    s.wait_idle();
    ASSERT_FALSE(s.simulation().error()) << s.simulation().error()->full_message();
    state = inputs::builtin_steps(runtime, r, state, steps);
    EXPECT_TRUE(equal(shown(), state)) << steps << " steps";
  }
  SimulationRunner::Brush brush;
  brush.enabled = true;
  brush.radius = 9;
  brush.value = 1;
  s.simulation().set_brush(brush);
  s.simulation().paint_line(40, 30, 120, 70);
  s.wait_idle();
  const Image painted = shown();
  EXPECT_FALSE(equal(painted, state));  // the stroke is in the state
  s.simulation().step(12);
  s.wait_idle();
  ASSERT_FALSE(s.simulation().error()) << s.simulation().error()->full_message();
  EXPECT_TRUE(equal(shown(), inputs::builtin_steps(runtime, r, painted, 12)));
  EXPECT_EQ(s.simulation().generation(), 50);
}

// Faults the GPU: run only with KS_GPU_FAULT_TESTS=1, after the frame tests (scripts/gpu-check's last step).
TEST(SessionUserStepFaultsCuda, AFaultLeavesTheSessionRunningAndTheNextKernelAndTheBuiltInRun) {
  KS_REQUIRE_GPU_FAULTS();
  ::setenv("KS_WORKER", KS_CLI_PATH, 1);
  Session s(options());
  start_life(s, 64, 48);
  s.use_user_step_kernel(choice("fault.cu", kFault, {}));
  s.wait_idle();
  ASSERT_TRUE(s.simulation().error());
  EXPECT_NE(s.simulation().error()->full_message().find("illegal address"), std::string::npos)
      << s.simulation().error()->full_message();
  EXPECT_FALSE(s.simulation().playing());
  EXPECT_FALSE(s.display_frame().interop_refused.empty()) << "after the fault the display goes through the host";
  s.use_user_step_kernel(life_template());
  s.simulation().set_playing(false);
  s.simulation().step(3);
  s.wait_idle();
  EXPECT_FALSE(s.simulation().error()) << s.simulation().error()->full_message();
  EXPECT_TRUE(checked(s, 5).matches());
  s.use_user_step_kernel(std::nullopt);
  s.simulation().step(2);
  s.wait_idle();
  EXPECT_NE(s.simulation().report()->variant, "yours");
  EXPECT_EQ(s.simulation().generation(), 5);
}

}  // namespace
}  // namespace ks::app
