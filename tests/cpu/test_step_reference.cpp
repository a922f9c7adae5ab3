// A user's step kernel beside the built-in simulation it stands in for (app/inputs/step_reference.hpp), without a
// GPU: which simulation fits which element type (and the refusals that name what fits), the state in the kernel's
// form and the simulation's, and the built-in's own steps from a state of the kernel's form on odd grids, held to
// hand-worked expectations (a blinker, a glider, a lone cell on a 1x1 torus, one heat step).
#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "inputs/step_reference.hpp"
#include "registry/registry.hpp"
#include "sim/sim_math.hpp"

namespace ks::inputs {
namespace {

std::string usage_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage) << e.full_message();
    return e.full_message();
  }
  ADD_FAILURE() << "no usage error";
  return {};
}

Image cells(int w, int h, std::initializer_list<std::pair<int, int>> alive) {
  Image state(w, h, 1, ElemType::U8);
  for (auto [x, y] : alive) state.row<std::uint8_t>(y)[x] = 1;
  return state;
}

SimulationRequest life_request() {
  SimulationRequest r;
  r.kernel = "life";
  r.params = KernelRegistry::builtin().get("life").default_params();  // B3/S23 on a torus
  r.backend = Backend::Cpu;
  return r;
}

Runtime& runtime() {
  static Runtime r(Runtime::Options{2});
  return r;
}

TEST(StepReference, LifeKeepsU8CellsAndHeatF32) {
  EXPECT_EQ(simulation_for_step(ElemType::U8), "life");
  EXPECT_EQ(simulation_for_step(ElemType::F32), "heat");
  EXPECT_NO_THROW(check_step_reference("life", ElemType::U8));
  EXPECT_NO_THROW(check_step_reference("heat", ElemType::F32));
}

TEST(StepReference, RefusesWhatDoesNotKeepOneValueOfTheKernelsTypePerCell) {
  const std::string gs = usage_message([] { check_step_reference("grayscott", ElemType::F32); });
  EXPECT_NE(gs.find("two values per cell (u and v)"), std::string::npos) << gs;
  EXPECT_NE(gs.find("check it against heat"), std::string::npos) << gs;
  const std::string heat = usage_message([] { check_step_reference("heat", ElemType::U8); });
  EXPECT_NE(heat.find("heat keeps f32 cells, and your kernel keeps u8 cells"), std::string::npos) << heat;
  EXPECT_NE(heat.find("check it against life"), std::string::npos) << heat;
  const std::string life = usage_message([] { check_step_reference("life", ElemType::F32); });
  EXPECT_NE(life.find("check it against heat"), std::string::npos) << life;
  const std::string box = usage_message([] { check_step_reference("box", ElemType::U8); });
  EXPECT_NE(box.find("box is a stencil kernel"), std::string::npos) << box;
  EXPECT_THROW(check_step_reference("nosuchkernel", ElemType::U8), Error);
}

TEST(StepReference, LifeCellsAre0And1ForTheKernelAnd0And255ForTheSimulation) {
  Image state = cells(3, 1, {{0, 0}});
  state.row<std::uint8_t>(0)[2] = 2;  // any value but 0 is alive, as the template reads it
  const sim::Fields fields = fields_of_step_state(state, sim::SimKind::Life);
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields[0].row<std::uint8_t>(0)[0], 255);
  EXPECT_EQ(fields[0].row<std::uint8_t>(0)[1], 0);
  EXPECT_EQ(fields[0].row<std::uint8_t>(0)[2], 255);
  const Image back = step_state_of(fields, sim::SimKind::Life);
  EXPECT_EQ(back.row<std::uint8_t>(0)[0], 1);
  EXPECT_EQ(back.row<std::uint8_t>(0)[1], 0);
  EXPECT_EQ(back.row<std::uint8_t>(0)[2], 1);
  Image u(2, 1, 1, ElemType::F32);
  u.row<float>(0)[1] = 0.375f;
  EXPECT_EQ(step_state_of(fields_of_step_state(u, sim::SimKind::Heat), sim::SimKind::Heat).row<float>(0)[1], 0.375f);
}

TEST(StepReference, TheBuiltInTurnsABlinkerOnAnOddTorus) {
  const Image horizontal = cells(7, 5, {{2, 2}, {3, 2}, {4, 2}});
  const Image after = builtin_steps(runtime(), life_request(), horizontal, 1);
  ASSERT_EQ(after.type(), ElemType::U8);
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 7; ++x)
      EXPECT_EQ(after.row<std::uint8_t>(y)[x], x == 3 && y >= 1 && y <= 3 ? 1 : 0) << x << "," << y;
}

TEST(StepReference, AGliderMovesOneCellDiagonallyEveryFourStepsOn1023x7) {
  // The glider .O. / ..O / OOO moves (+1, +1) every 4 generations; on 7 rows it wraps round the torus.
  const Image start = cells(1023, 7, {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}});
  const Image after = builtin_steps(runtime(), life_request(), start, 8);
  const Image expected = cells(1023, 7, {{3, 2}, {4, 3}, {2, 4}, {3, 4}, {4, 4}});
  EXPECT_EQ(std::vector<std::uint8_t>(after.elements<std::uint8_t>().begin(), after.elements<std::uint8_t>().end()),
            std::vector<std::uint8_t>(expected.elements<std::uint8_t>().begin(),
                                      expected.elements<std::uint8_t>().end()));
}

TEST(StepReference, ALoneCellOnA1x1TorusIsItsOwnEightNeighboursAndDies) {
  const Image after = builtin_steps(runtime(), life_request(), cells(1, 1, {{0, 0}}), 1);
  EXPECT_EQ(after.row<std::uint8_t>(0)[0], 0);
}

TEST(StepReference, OneHeatStepSpreadsAFifthOfAHotCellToEachNeighbour) {
  // u' = u + r (sum of the 4 neighbours - 4 u) with r = diffusivity * dt = 0.2 (the defaults).
  SimulationRequest r;
  r.kernel = "heat";
  r.params = KernelRegistry::builtin().get("heat").default_params();
  r.params.set("boundary", "periodic");
  r.backend = Backend::Cpu;
  Image u(5, 3, 1, ElemType::F32);
  u.row<float>(1)[2] = 1.f;
  const Image after = builtin_steps(runtime(), r, u, 1);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 5; ++x) {
      const bool neighbour = (y == 1 && (x == 1 || x == 3)) || (x == 2 && (y == 0 || y == 2));
      const float expected = (x == 2 && y == 1) || neighbour ? 0.2f : 0.f;
      EXPECT_NEAR(after.row<float>(y)[x], expected, 1e-6) << x << "," << y;
    }
}

TEST(StepReference, TheBuiltInRefusesAStateOfAnotherType) {
  SimulationRequest r = life_request();
  r.kernel = "heat";
  r.params = KernelRegistry::builtin().get("heat").default_params();
  const std::string m = usage_message([&] { builtin_steps(runtime(), r, cells(3, 3, {}), 1); });
  EXPECT_NE(m.find("check it against life"), std::string::npos) << m;
}

}  // namespace
}  // namespace ks::inputs
