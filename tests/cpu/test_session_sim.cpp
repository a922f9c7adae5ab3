// The live simulation through the session (CPU backend): selecting a simulation kernel runs it, steps advance the
// generation and the display frame, the frames hold exactly what ks::Simulation computes, paint, reset and pause
// act as a person expects, parameter changes keep the state, and refused values leave everything running.
#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "session/session.hpp"
#include "sim/life_patterns.hpp"
#include "cpu/session_sim_support.hpp"
#include "support/test_support.hpp"

namespace ks::app {
namespace {

using namespace std::chrono_literals;
using Cells = std::set<std::pair<int, int>>;

using test_sim::cpu_options;
using test_sim::host_frame;
using test_sim::start_paused;

void start_life(Session& s, int w, int h, const std::vector<std::string>& params = {}) {
  start_paused(s, "life", w, h, params);
}


Cells live_cells(const Image& frame) {
  Cells cells;
  const auto v = frame.elements<std::uint8_t>();
  for (int y = 0; y < frame.height(); ++y)
    for (int x = 0; x < frame.width(); ++x)
      if (v[std::size_t(y) * frame.width() + x]) cells.insert({x, y});
  return cells;
}

Cells shifted(const Cells& cells, int dx, int dy) {
  Cells out;
  for (auto [x, y] : cells) out.insert({x + dx, y + dy});
  return out;
}

TEST(SessionSim, SelectingLifeRunsItAndStepsAdvanceGenerationAndFrame) {
  Session s(cpu_options());
  start_life(s, 97, 61, {"density=0.35", "seed=7"});
  ASSERT_TRUE(s.simulating());
  ASSERT_TRUE(s.has_output());
  EXPECT_EQ(s.simulation().generation(), 0);
  const ui::DisplayFrame f0 = s.display_frame();
  ASSERT_NE(f0.output, nullptr);
  EXPECT_EQ(f0.output->width(), 97);
  EXPECT_EQ(f0.output->height(), 61);
  EXPECT_EQ(f0.output->type(), ElemType::U8);
  const Image shown0 = *f0.output;  // the frame's pointers hold until the next frame only

  s.simulation().step(5);
  s.wait_idle();
  EXPECT_EQ(s.simulation().generation(), 5);
  const ui::DisplayFrame f5 = s.display_frame();
  EXPECT_GT(f5.output_generation, f0.output_generation) << "a new frame for the renderer";

  // The frame is what the simulation API computes for the same request and start, step for step.
  Engine engine(Engine::Options{1});
  SimulationRequest r;
  r.kernel = "life";
  r.params = KernelRegistry::builtin().get("life").default_params();
  r.params.set("density", "0.35");
  r.params.set("seed", "7");
  r.width = 97, r.height = 61;
  Simulation reference(engine, r);
  const Image start = reference.image();
  EXPECT_TRUE(test::images_match(shown0, start));
  reference.step(5);
  EXPECT_TRUE(test::images_match(*f5.output, reference.image()));
  ASSERT_TRUE(s.simulation().stats().population);
  EXPECT_EQ(*s.simulation().stats().population, reference.population());
  EXPECT_NE(live_cells(start), live_cells(*f5.output)) << "a random Life grid changes in 5 steps";

  // Timing: one sample per step, shown with its statistics.
  EXPECT_EQ(s.simulation().timing().recent_ms.size(), 5u);
  EXPECT_EQ(s.simulation().timing().stats.count, 5);
  EXPECT_GT(s.simulation().timing().steps_per_second, 0);
  ASSERT_TRUE(s.simulation().report());
  EXPECT_EQ(s.simulation().report()->variant, "cpu");
  EXPECT_EQ(s.effective_variant(), "cpu");
}

TEST(SessionSim, APlacedGliderMovesOneCellDiagonallyEveryFourGenerations) {
  Session s(cpu_options());
  start_life(s, 40, 33);
  s.simulation().set_pattern(std::make_shared<const sim::LifePattern>(sim::builtin_pattern("glider")));
  s.run_now();
  const Cells g0 = live_cells(host_frame(s));
  ASSERT_EQ(g0.size(), 5u);
  EXPECT_EQ(*s.simulation().stats().population, 5);
  s.simulation().step(4);
  s.wait_idle();
  const Cells g4 = live_cells(host_frame(s));
  EXPECT_EQ(g4.size(), 5u);
  EXPECT_EQ(g4, shifted(g0, 1, 1)) << "the built-in glider travels down and to the right";
  EXPECT_EQ(s.simulation().generation(), 4);
}

TEST(SessionSim, AGliderPaintedWithTheBrushFlies) {
  Session s(cpu_options());
  start_life(s, 30, 30, {"density=0"});
  ASSERT_TRUE(live_cells(host_frame(s)).empty());
  SimulationRunner::Brush b = s.simulation().brush();
  b.radius = 0;
  b.value = 1;
  s.simulation().set_brush(b);
  // .o. / ..o / ooo at (10, 10): a glider heading down-right, painted cell by cell like mouse clicks.
  const Cells glider = {{11, 10}, {12, 11}, {10, 12}, {11, 12}, {12, 12}};
  for (auto [x, y] : glider) s.simulation().paint_line(x + 0.5, y + 0.5, x + 0.5, y + 0.5);
  s.wait_idle();
  EXPECT_EQ(live_cells(host_frame(s)), glider);
  EXPECT_EQ(s.simulation().generation(), 0) << "painting is not a step";
  s.simulation().step(8);
  s.wait_idle();
  EXPECT_EQ(live_cells(host_frame(s)), shifted(glider, 2, 2));

  // A stroke leaves no gaps: a line of radius-0 discs from (2, 25) to (27, 25).
  s.simulation().paint_line(2.5, 25.5, 27.5, 25.5);
  s.wait_idle();
  const Cells after = live_cells(host_frame(s));
  for (int x = 2; x <= 27; ++x) EXPECT_TRUE(after.count({x, 25})) << "x = " << x;
}

TEST(SessionSim, ResetReturnsToTheStartAndGenerationZero) {
  Session s(cpu_options());
  start_life(s, 50, 50, {"density=0.4"});
  const Image start = host_frame(s);
  s.simulation().step(7);
  s.wait_idle();
  ASSERT_EQ(s.simulation().generation(), 7);
  ASSERT_FALSE(test::images_match(host_frame(s), start));
  s.simulation().reset();
  s.wait_idle();
  EXPECT_EQ(s.simulation().generation(), 0);
  EXPECT_TRUE(test::images_match(host_frame(s), start));
}

TEST(SessionSim, PlayingAdvancesWhilePolledAndPauseStopsIt) {
  Session s(cpu_options());
  start_life(s, 64, 64);
  s.simulation().set_steps_per_frame(3);
  s.simulation().set_playing(true);
  const auto until = std::chrono::steady_clock::now() + 5s;
  while (s.simulation().generation() < 12 && std::chrono::steady_clock::now() < until) {
    s.poll();
    std::this_thread::sleep_for(2ms);
  }
  EXPECT_GE(s.simulation().generation(), 12) << "playing steps on every poll";
  s.simulation().set_playing(false);
  s.wait_idle();
  const long long paused_at = s.simulation().generation();
  for (int i = 0; i < 30; ++i) {
    s.poll();
    std::this_thread::sleep_for(2ms);
  }
  EXPECT_EQ(s.simulation().generation(), paused_at);
  EXPECT_FALSE(s.simulation().playing());
}

// The first simulation chosen after the app starts plays at once, like every later choice (it did not: playing
// was only ever switched on by the Play button).
TEST(SessionSim, ChoosingASimulationStartsPlayingTheFirstTimeToo) {
  Session s(cpu_options());
  s.open_sample();
  s.select_kernel("life");
  EXPECT_TRUE(s.simulation().playing());
  const auto until = std::chrono::steady_clock::now() + 5s;
  while (s.simulation().generation() < 3 && std::chrono::steady_clock::now() < until) {
    s.poll();
    std::this_thread::sleep_for(2ms);
  }
  EXPECT_GE(s.simulation().generation(), 3) << "it runs without anyone pressing Play";
}

// Steps per frame belong to a simulation: Gray-Scott's large value does not carry over to heat, and each comes
// back with its own when chosen again (the defaults are README's: 1 for Life, 4 for heat, 16 for Gray-Scott).
TEST(SessionSim, EachSimulationKeepsItsOwnStepsPerFrame) {
  Session s(cpu_options());
  s.open_sample();
  s.select_kernel("grayscott");
  EXPECT_EQ(s.simulation().steps_per_frame(), 16);
  s.simulation().set_steps_per_frame(1000);
  s.select_kernel("heat");
  EXPECT_EQ(s.simulation().steps_per_frame(), 4) << "heat does not inherit Gray-Scott's 1000";
  s.simulation().set_steps_per_frame(9);
  s.select_kernel("life");
  EXPECT_EQ(s.simulation().steps_per_frame(), 1);
  s.simulation().set_steps_per_frame(5);
  s.select_kernel("box");  // a stencil in between
  s.select_kernel("grayscott");
  EXPECT_EQ(s.simulation().steps_per_frame(), 1000);
  s.select_kernel("life");
  EXPECT_EQ(s.simulation().steps_per_frame(), 5) << "kept across the stencil";
  s.select_kernel("heat");
  EXPECT_EQ(s.simulation().steps_per_frame(), 9);
  s.wait_idle();
}

TEST(SessionSim, ParameterChangesKeepTheStateAndInitialStateParametersRestart) {
  Session s(cpu_options());
  start_life(s, 40, 40);
  s.simulation().set_pattern(std::make_shared<const sim::LifePattern>(sim::builtin_pattern("glider")));
  s.run_now();
  const Cells g0 = live_cells(host_frame(s));
  s.simulation().step(4);
  s.wait_idle();
  // HighLife moves gliders like Life: the running simulation takes the rule and the generation goes on.
  s.set_param("rule", "B36/S23");
  s.run_now();
  EXPECT_EQ(s.simulation().generation(), 4);
  EXPECT_FALSE(s.simulation().carried_over()) << "the same simulation, not a new one from its state";
  EXPECT_EQ(live_cells(host_frame(s)), shifted(g0, 1, 1));
  s.simulation().step(4);
  s.wait_idle();
  EXPECT_EQ(live_cells(host_frame(s)), shifted(g0, 2, 2));
  // Reset goes back to the pattern, under the new rule.
  s.simulation().reset();
  s.wait_idle();
  EXPECT_EQ(s.simulation().generation(), 0);
  EXPECT_EQ(live_cells(host_frame(s)), g0);
  // The seed of a random fill defines the state: a change starts afresh from it.
  s.simulation().set_start(SimStart::Parameters);
  s.run_now();
  const Image seed1 = host_frame(s);
  s.set_param("seed", "2");
  s.run_now();
  EXPECT_FALSE(s.simulation().carried_over());
  EXPECT_FALSE(test::images_match(host_frame(s), seed1));
}

TEST(SessionSim, HeatShowsItsTotalAndInsulatedBoundariesKeepIt) {
  Session s(cpu_options());
  start_paused(s, "heat", 80, 60);
  ASSERT_TRUE(s.simulation().stats().total);
  const double total0 = *s.simulation().stats().total;
  EXPECT_GT(total0, 0) << "hot spots";
  EXPECT_FALSE(s.simulation().stats().population);
  s.simulation().step(20);
  s.wait_idle();
  EXPECT_NEAR(*s.simulation().stats().total, total0, 1e-3 * total0);
  const ui::DisplayFrame f = s.display_frame();
  ASSERT_NE(f.output, nullptr);
  EXPECT_EQ(f.output->type(), ElemType::F32);
  // The view starts with a range covering the initial state.
  EXPECT_EQ(s.simulation().suggested_picture().range_min, 0.0f);
  EXPECT_EQ(s.simulation().suggested_picture().range_max, 1.0f);
}

TEST(SessionSim, HeatFromTheLoadedImageTakesItsSizeAndLuminance) {
  Session s(cpu_options());
  start_paused(s, "heat", 0, 0);
  const ui::DisplayFrame f = s.display_frame();
  ASSERT_NE(f.output, nullptr);
  EXPECT_EQ(f.output->width(), s.input()->width());
  EXPECT_EQ(f.output->height(), s.input()->height());
  // A coefficient change keeps the state; only another image starts afresh from it.
  s.simulation().step(3);
  s.wait_idle();
  s.set_param("diffusivity", "0.5");
  s.run_now();
  EXPECT_FALSE(s.simulation().carried_over());
  EXPECT_EQ(s.simulation().generation(), 3);
  s.open_sample();
  s.run_now();
  EXPECT_FALSE(s.simulation().carried_over());
  EXPECT_EQ(s.simulation().generation(), 0);
}

TEST(SessionSim, RefusedValuesSayWhyAndTheSimulationKeepsRunning) {
  Session s(cpu_options());
  start_paused(s, "heat", 32, 32);
  // dt beyond the stability limit of the explicit scheme (1/4 for diffusivity 1): refused at once, with the limit.
  try {
    s.set_param("dt", "1");
    FAIL() << "dt=1 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(e.full_message().find("0.25"), std::string::npos) << e.full_message();
  }
  EXPECT_EQ(s.params().get_float("dt"), 0.2) << "the previous value stays";
  EXPECT_THROW(s.simulation().set_steps_per_frame(0), Error);
  EXPECT_THROW(s.simulation().set_grid_size(0, 5), Error);
  EXPECT_THROW(s.simulation().set_start(SimStart::Pattern), Error) << "patterns are for life";
  SimulationRunner::Brush b = s.simulation().brush();
  b.value = std::nan("");
  EXPECT_THROW(s.simulation().set_brush(b), Error);
  EXPECT_THROW(s.start_sweep(), Error);
  EXPECT_THROW(s.set_variant("naive"), Error) << "no CUDA in this session";

  // A request the simulation itself refuses (here: bypassing the panel's check) gives a notice, keeps the last
  // frame and pauses; a good request afterwards runs again from that state.
  s.simulation().step(3);
  s.wait_idle();
  s.take_notices();
  ParamSet bad = s.params();
  bad.set("dt", "0.5");
  s.simulation().configure("heat", bad, Backend::Cpu, "", std::nullopt, nullptr);
  s.simulation().set_playing(true);
  s.wait_idle();
  ASSERT_TRUE(s.simulation().error());
  EXPECT_NE(s.simulation().error()->full_message().find("stability"), std::string::npos);
  EXPECT_FALSE(s.simulation().playing());
  EXPECT_TRUE(s.has_output()) << "the last frame stays on screen";
  bool noticed = false;
  for (const auto& n : s.take_notices()) noticed |= n.level == Session::Notice::Level::Error;
  EXPECT_TRUE(noticed);
  s.set_param("dt", "0.1");
  s.run_now();
  EXPECT_FALSE(s.simulation().error());
  EXPECT_EQ(s.simulation().generation(), 3) << "carried on from the state shown";
  s.simulation().step(1);
  s.wait_idle();
  EXPECT_EQ(s.simulation().generation(), 4);
}

TEST(SessionSim, BackToAStencilShowsItsResultAgain) {
  Session s(cpu_options());
  start_life(s, 20, 20);
  s.select_kernel("box");
  EXPECT_FALSE(s.simulating());
  EXPECT_FALSE(s.simulation().active());
  s.run_now();
  const ui::DisplayFrame f = s.display_frame();
  ASSERT_NE(f.output, nullptr);
  EXPECT_EQ(f.output->width(), s.input()->width());
  EXPECT_EQ(f.input, s.input());
}

}  // namespace
}  // namespace ks::app
