// ks::Simulation as the CLI and the GUI drive it: what it refuses before taking memory, painting, reset, the
// counters and the report.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "sim/life_patterns.hpp"
#include "sim/simulation.hpp"
#include "support/sim_support.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

Engine& engine() {
  static Engine e(Engine::Options{0});
  return e;
}

SimulationRequest request(const std::string& kernel, int w, int h, const std::string& variant = "cpu") {
  SimulationRequest r;
  r.kernel = kernel;
  r.params = KernelRegistry::builtin().get(kernel).default_params();
  r.backend = Backend::Cpu;
  r.variant = variant;
  r.width = w;
  r.height = h;
  return r;
}

using sim_test::usage_error;

TEST(Simulation, RefusesBadRequestsWithWhatToDo) {
  EXPECT_NE(usage_error([] { Simulation(engine(), request("life", 0, 5)); }).find("no cells"),
            std::string::npos);
  EXPECT_NE(usage_error([] { Simulation(engine(), request("life", 70000, 2)); }).find("too large"),
            std::string::npos);
  EXPECT_NE(usage_error([] { Simulation(engine(), request("box", 8, 8)); }).find("not a simulation"),
            std::string::npos);
  EXPECT_NE(usage_error([] { Simulation(engine(), request("life", 8, 8, "naive")); }).find("--backend cuda"),
            std::string::npos);
  EXPECT_NE(
      usage_error([] { Simulation(engine(), request("heat", 8, 8, "cpu_bitpacked")); }).find("no variant"),
      std::string::npos);
  EXPECT_NE(usage_error([] {
              SimulationRequest r = request("life", 8, 8);
              r.block = BlockShape{16, 16};
              Simulation(engine(), r);
            }).find("--block"),
            std::string::npos);
  EXPECT_NE(usage_error([] {
              Simulation(engine(), request("life", 30, 5),
                         SimulationStart{.pattern = sim::builtin_pattern("gosper-gun")});
            }).find("--size 36x9"),
            std::string::npos);
  EXPECT_NE(usage_error([] {
              Simulation(engine(), request("heat", 40, 40),
                         SimulationStart{.pattern = sim::builtin_pattern("glider")});
            }).find("Life patterns"),
            std::string::npos);
  EXPECT_NE(usage_error([] {
              Simulation(engine(), request("heat", 40, 40),
                         SimulationStart{.image = Image(30, 20, 1, ElemType::U8)});
            }).find("differs from the image"),
            std::string::npos);
}

TEST(Simulation, GridSizeFollowsTheImageOrTheDefault) {
  Simulation from_image(engine(), request("heat", 0, 0),
                        SimulationStart{.image = Image(30, 20, 3, ElemType::U8)});
  EXPECT_EQ(from_image.width(), 30);
  EXPECT_EQ(from_image.height(), 20);
  Simulation plain(engine(), request("life", 0, 0));
  EXPECT_EQ(plain.width(), kDefaultSimSize);
  EXPECT_EQ(plain.height(), kDefaultSimSize);
}

TEST(Simulation, PaintsDiscsAndResetsToTheStart) {
  for (const char* variant : {"cpu", "cpu_bitpacked"}) {
    SCOPED_TRACE(variant);
    SimulationRequest r = request("life", 70, 9, variant);
    r.params.set("density", "0");
    Simulation sim(engine(), r);
    EXPECT_EQ(sim.population(), 0);
    sim.paint(64, 4, 2, 1);  // a disc of radius 2: 13 cells, across a word boundary of the packed grid
    EXPECT_EQ(sim.population(), 13);
    EXPECT_EQ(sim.image().row<std::uint8_t>(4)[66], 255);
    EXPECT_EQ(sim.image().row<std::uint8_t>(4)[67], 0);
    sim.paint(0, 0, 3, 1);  // clipped at the corner: dx, dy >= 0 with dx^2 + dy^2 <= 9: 11 cells
    EXPECT_EQ(sim.population(), 24);
    sim.paint(64, 4, 0, 0);
    EXPECT_EQ(sim.population(), 23);
    EXPECT_NE(usage_error([&] { sim.paint(1, 1, 1, 0.5); }).find("neither 1"), std::string::npos);
    sim.step(3);
    EXPECT_EQ(sim.generation(), 3);
    sim.reset();
    EXPECT_EQ(sim.generation(), 0);
    EXPECT_EQ(sim.population(), 0);
  }
  Simulation heat(engine(), request("heat", 10, 10));
  heat.reset();
  const double before = heat.total();
  heat.paint(5, 5, 1, 3.0);  // 5 cells set to 3
  EXPECT_GT(heat.total(), before);
  EXPECT_NE(usage_error([&] { heat.population(); }).find("population"), std::string::npos);
  Simulation gs(engine(), request("grayscott", 10, 10));
  EXPECT_NE(usage_error([&] { gs.paint(1, 1, 1, 0.7); }).find("0 .. 0.5"), std::string::npos);
}

TEST(Simulation, CountersAndTheReport) {
  SimulationRequest r = request("life", 100, 50, "cpu_bitpacked");
  Simulation sim(engine(), r);
  sim.step(20);
  const SimulationReport rep = sim.report();
  EXPECT_EQ(rep.kernel, "life");
  EXPECT_EQ(rep.variant, "cpu_bitpacked");
  EXPECT_EQ(rep.generation, 20);
  EXPECT_EQ(rep.step_time.count, 20);
  EXPECT_GT(rep.step_time.median_ms, 0);
  EXPECT_EQ(rep.bytes_per_step, 2u * 2 * 8 * 50);  // two 64-bit words per row, read and written
  EXPECT_GT(rep.steps_per_second, 0);
  EXPECT_EQ(rep.copy_bandwidth_gbps, 0);
  EXPECT_FALSE(rep.block.has_value());
  const SimulationStats s = sim.stats();
  EXPECT_EQ(s.generation, 20);
  ASSERT_TRUE(s.population.has_value());
  EXPECT_EQ(*s.population, sim.population());
  EXPECT_NE(usage_error([&] { sim.total(); }).find("population"), std::string::npos);
  EXPECT_NE(usage_error([&] { sim.device_image(); }).find("CPU"), std::string::npos);
  sim.clear_timings();
  EXPECT_TRUE(sim.step_ms().empty());
}

TEST(Simulation, APatternRunsUnderItsOwnRuleUnlessOneIsGiven) {
  const sim::LifePattern p = sim::parse_rle("x = 3, y = 1, rule = B36/S23\n3o!", "t");
  Simulation own(engine(), request("life", 10, 10), SimulationStart{.pattern = p});
  bool found = false;
  for (const auto& [k, v] : own.report().params)
    if (k == "rule") found = v == "B36/S23";
  EXPECT_TRUE(found);
  SimulationRequest r = request("life", 10, 10);
  r.params.set("rule", "B2/S");
  Simulation given(engine(), r, SimulationStart{.pattern = p});
  for (const auto& [k, v] : given.report().params)
    if (k == "rule") {
      EXPECT_EQ(v, "B2/S");
    }
}

}  // namespace
}  // namespace ks
