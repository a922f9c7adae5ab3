// Simulation::set_params on the CPU backends: new rates, rules and borders apply to the running state from
// the next step on (the state, u and v of Gray-Scott alike, and the generation stay), checked against
// step-by-step computations written here (the explicit 5-point schemes in float, Life patterns worked out by
// hand); refused values and parameters of the initial state change nothing.
#include <gtest/gtest.h>

#include <set>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "sim/rle.hpp"
#include "sim/simulation.hpp"
#include "support/sim_support.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

using sim_test::engine;
using sim_test::usage_error;
using sim_test::with;

SimulationRequest cpu_request(const std::string& kernel, const std::vector<std::string>& assignments,
                              const std::string& variant = "cpu", int w = 0, int h = 0) {
  return sim_test::sim_request(kernel, assignments, Backend::Cpu, variant, w, h);
}

// ---- the reference: one explicit step of a field at a time, in float, in the order the scheme is written
// ----

enum class Edge { Periodic, Insulated, Fixed };

struct Field {
  int w = 0, h = 0;
  std::vector<float> c;
  explicit Field(const Image& img) : w(img.width()), h(img.height()) {
    const auto e = img.elements<float>();
    c.assign(e.begin(), e.end());
  }
  float at(int x, int y) const { return c[std::size_t(y) * std::size_t(w) + std::size_t(x)]; }
  // The value at (x, y), which may be one cell outside the grid.
  float read(int x, int y, Edge edge, float fixed) const {
    if (x < 0 || x >= w || y < 0 || y >= h) {
      if (edge == Edge::Fixed) return fixed;
      if (edge == Edge::Periodic) return at((x + w) % w, (y + h) % h);
      return at(std::clamp(x, 0, w - 1), std::clamp(y, 0, h - 1));  // insulated: the edge cell mirrored
    }
    return at(x, y);
  }
  // (west + east) + (north + south) - 4 * centre
  float laplacian(int x, int y, Edge edge, float fixed) const {
    const float sum = (read(x - 1, y, edge, fixed) + read(x + 1, y, edge, fixed)) +
                      (read(x, y - 1, edge, fixed) + read(x, y + 1, edge, fixed));
    return sum - 4.0f * at(x, y);
  }
  Image image() const {
    Image img(w, h, 1, ElemType::F32);
    std::copy(c.begin(), c.end(), img.elements<float>().begin());
    return img;
  }
};

// du/dt = D lap(u), r = D * dt.
Field heat_step(const Field& u, double diffusivity, double dt, Edge edge, float fixed) {
  const float r = float(diffusivity * dt);
  Field out = u;
  for (int y = 0; y < u.h; ++y)
    for (int x = 0; x < u.w; ++x)
      out.c[std::size_t(y) * std::size_t(u.w) + std::size_t(x)] =
          u.at(x, y) + r * u.laplacian(x, y, edge, fixed);
  return out;
}

struct GrayScott {
  double F, k, Du = 0.2097, Dv = 0.105, dt = 1;  // the kernel's default diffusion rates and time step
};

// du/dt = Du lap(u) - u v^2 + F (1 - u), dv/dt = Dv lap(v) + u v^2 - (F + k) v; periodic.
void grayscott_step(Field& u, Field& v, const GrayScott& g) {
  const float F = float(g.F), fk = float(g.F + g.k), du = float(g.Du), dv = float(g.Dv), dt = float(g.dt);
  Field nu = u, nv = v;
  for (int y = 0; y < u.h; ++y)
    for (int x = 0; x < u.w; ++x) {
      const float a = u.at(x, y), b = v.at(x, y);
      const float uvv = a * b * b;
      const float rate_u = (du * u.laplacian(x, y, Edge::Periodic, 0) - uvv) + F * (1.0f - a);
      const float rate_v = (dv * v.laplacian(x, y, Edge::Periodic, 0) + uvv) - fk * b;
      const std::size_t i = std::size_t(y) * std::size_t(u.w) + std::size_t(x);
      nu.c[i] = a + dt * rate_u;
      nv.c[i] = b + dt * rate_v;
    }
  u = std::move(nu);
  v = std::move(nv);
}

TEST(SimSetParams, HeatRunsOnUnderTheNewRateAndBoundaryFromTheStateItHad) {
  const Image start = test::random_image(37, 23, 1, ElemType::F32, 5);
  Simulation sim(engine(), cpu_request("heat", {"diffusivity=1", "dt=0.2", "boundary=insulated"}),
                 SimulationStart{.image = start});
  sim.step(9);
  const Image before = sim.image();
  const ParamUpdate update =
      sim.set_params(with(sim.params(), {"diffusivity=0.5", "dt=0.3", "boundary=fixed", "boundary_value=2"}));
  EXPECT_TRUE(update.applied);
  EXPECT_TRUE(update.restart.empty());
  EXPECT_EQ(sim.generation(), 9) << "a parameter change is not a step";
  EXPECT_TRUE(test::images_match(sim.image(), before, 0)) << "the state is kept as it was";
  EXPECT_EQ(sim.params().get_float("dt"), 0.3);
  sim.step(11);
  EXPECT_EQ(sim.generation(), 20);

  Field expected(start), unchanged(start);
  for (int i = 0; i < 9; ++i) expected = heat_step(expected, 1, 0.2, Edge::Insulated, 0);
  unchanged = expected;
  for (int i = 0; i < 11; ++i) {
    expected = heat_step(expected, 0.5, 0.3, Edge::Fixed, 2.0f);
    unchanged = heat_step(unchanged, 1, 0.2, Edge::Insulated, 0);
  }
  EXPECT_TRUE(test::images_match(sim.image(), expected.image()));
  ASSERT_FALSE(test::images_match(unchanged.image(), expected.image(), 1e-3))
      << "the change shows in the field";

  // The report shows the parameters in force; reset goes back to the same start under them.
  bool reported = false;
  for (const auto& [name, value] : sim.report().params) reported |= name == "boundary" && value == "fixed";
  EXPECT_TRUE(reported);
  sim.reset();
  EXPECT_EQ(sim.generation(), 0);
  EXPECT_TRUE(test::images_match(sim.image(), start, 0));
  sim.step(1);
  EXPECT_TRUE(test::images_match(sim.image(), heat_step(Field(start), 0.5, 0.3, Edge::Fixed, 2.0f).image()));
}

TEST(SimSetParams, GrayScottKeepsUAndVWhenTheFeedRateChanges) {
  Simulation sim(engine(), cpu_request("grayscott", {"F=0.0545", "k=0.062"}, "cpu", 41, 29));  // seed squares
  const std::vector<Image> start = sim.fields();
  sim.step(60);
  ASSERT_TRUE(sim.set_params(with(sim.params(), {"F=0.03"})).applied);
  EXPECT_EQ(sim.generation(), 60);
  sim.step(40);
  EXPECT_EQ(sim.generation(), 100) << "the generation goes on counting";

  Field u(start[0]), v(start[1]);
  for (int i = 0; i < 60; ++i) grayscott_step(u, v, {0.0545, 0.062});
  Field u_same = u, v_same = v;
  for (int i = 0; i < 40; ++i) {
    grayscott_step(u, v, {0.03, 0.062});
    grayscott_step(u_same, v_same, {0.0545, 0.062});
  }
  const std::vector<Image> got = sim.fields();
  EXPECT_TRUE(test::images_match(got[0], u.image()));
  EXPECT_TRUE(test::images_match(got[1], v.image()));
  ASSERT_FALSE(test::images_match(v_same.image(), v.image(), 1e-3)) << "the new feed rate shows in v";
  // u went on from where it was, not from 1 - 2 v.
  Field restarted = v;
  for (float& x : restarted.c) x = 1.0f - 2.0f * x;
  EXPECT_FALSE(test::images_match(got[0], restarted.image(), 1e-3));

  // A preset takes its own F and k; together with F set by hand it is refused, and nothing changes.
  const std::string msg = usage_error([&] { sim.set_params(with(sim.params(), {"preset=coral"})); });
  EXPECT_NE(msg.find("preset=coral"), std::string::npos) << msg;
  EXPECT_EQ(sim.params().get_choice("preset"), "custom");
  const ParamSet coral = with(KernelRegistry::builtin().get("grayscott").default_params(), {"preset=coral"});
  EXPECT_TRUE(sim.set_params(coral).applied);
  EXPECT_EQ(sim.generation(), 100);
}

std::set<std::pair<int, int>> live_cells(const Image& img) {
  std::set<std::pair<int, int>> s;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x)
      if (img.row<std::uint8_t>(y)[x]) s.insert({x, y});
  return s;
}

Image cells_image(int w, int h, const std::set<std::pair<int, int>>& live) {
  Image img(w, h, 1, ElemType::U8);
  for (auto [x, y] : live) img.row<std::uint8_t>(y)[x] = 255;
  return img;
}

TEST(SimSetParams, ALifeRuleChangeAppliesToTheNextStep) {
  // A blinker under Conway's rule turns upright. Under Seeds (B2/S: no cell survives, a dead cell with
  // exactly 2 live neighbours is born) the upright blinker dies and the four cells diagonal to its centre,
  // each beside two of its cells, are born; their ring of 2-neighbour cells follows. (Under Conway it would
  // lie flat again.)
  using Cells = std::set<std::pair<int, int>>;
  const Cells flat = {{4, 5}, {5, 5}, {6, 5}}, upright = {{5, 4}, {5, 5}, {5, 6}};
  const Cells corners = {{4, 4}, {6, 4}, {4, 6}, {6, 6}};
  const Cells ring = {{5, 3}, {5, 4}, {5, 6}, {5, 7}, {3, 5}, {4, 5}, {6, 5}, {7, 5}};
  for (const char* variant : {"cpu", "cpu_bitpacked"}) {
    SCOPED_TRACE(variant);
    Simulation sim(engine(), cpu_request("life", {"rule=B3/S23", "border=dead"}, variant),
                   SimulationStart{.image = cells_image(11, 11, flat)});
    sim.step(1);
    ASSERT_EQ(live_cells(sim.image()), upright);
    ASSERT_TRUE(sim.set_params(with(sim.params(), {"rule=B2/S"})).applied);
    EXPECT_EQ(live_cells(sim.image()), upright) << "the rule applies to the next step, not to the state";
    sim.step(1);
    EXPECT_EQ(live_cells(sim.image()), corners);
    sim.step(1);
    EXPECT_EQ(live_cells(sim.image()), ring);
    EXPECT_EQ(sim.generation(), 3);
    EXPECT_EQ(sim.population(), 8);
  }
}

TEST(SimSetParams, ALifeBorderChangeAppliesToTheNextStep) {
  // A blinker on the top row of a 7x5 torus turns upright across the edge: (3, 4), (3, 0), (3, 1). With dead
  // borders from then on, each of those cells has at most one live neighbour and no cell has three: all die.
  // On the torus it would lie flat on the top row again.
  using Cells = std::set<std::pair<int, int>>;
  for (const char* variant : {"cpu", "cpu_bitpacked"}) {
    SCOPED_TRACE(variant);
    Simulation sim(engine(), cpu_request("life", {"border=torus"}, variant),
                   SimulationStart{.image = cells_image(7, 5, {{2, 0}, {3, 0}, {4, 0}})});
    sim.step(1);
    ASSERT_EQ(live_cells(sim.image()), (Cells{{3, 4}, {3, 0}, {3, 1}}));
    ASSERT_TRUE(sim.set_params(with(sim.params(), {"border=dead"})).applied);
    sim.step(1);
    EXPECT_EQ(sim.population(), 0);
    EXPECT_EQ(sim.generation(), 2);
  }
}

TEST(SimSetParams, RefusedValuesChangeNothing) {
  const Image start = test::random_image(19, 13, 1, ElemType::F32, 8);
  const SimulationRequest r = cpu_request("heat", {"diffusivity=1", "dt=0.2"});
  Simulation sim(engine(), r, SimulationStart{.image = start}),
      twin(engine(), r, SimulationStart{.image = start});
  sim.step(3);
  twin.step(3);
  // dt beyond the stability limit of the explicit scheme, with the limit in the message.
  std::string msg = usage_error([&] { sim.set_params(with(sim.params(), {"dt=0.5"})); });
  EXPECT_NE(msg.find("stability limit dt <= 0.25"), std::string::npos) << msg;
  msg = usage_error([&] { sim.set_params(with(sim.params(), {"diffusivity=4", "boundary=fixed"})); });
  EXPECT_NE(msg.find("stability"), std::string::npos) << msg;
  // Parameters of another kernel.
  msg = usage_error([&] { sim.set_params(KernelRegistry::builtin().get("life").default_params()); });
  EXPECT_NE(msg.find("not those of 'heat'"), std::string::npos) << msg;
  EXPECT_EQ(sim.params().get_float("dt"), 0.2);
  EXPECT_EQ(sim.params().get_choice("boundary"), "insulated");
  EXPECT_EQ(sim.generation(), 3);
  sim.step(5);
  twin.step(5);
  EXPECT_TRUE(test::images_match(sim.image(), twin.image(), 0)) << "steps run under the old parameters";
}

TEST(SimSetParams, ParametersOfTheInitialStateAskForANewSimulation) {
  const SimulationRequest r = cpu_request("life", {"density=0.4", "seed=3"}, "cpu", 23, 17);
  Simulation sim(engine(), r), twin(engine(), r);
  sim.step(2);
  twin.step(2);
  // The seed defines the random fill: a running state cannot take it, so nothing changes, not even the rule.
  ParamUpdate update = sim.set_params(with(sim.params(), {"seed=4", "rule=B36/S23"}));
  EXPECT_FALSE(update.applied);
  EXPECT_EQ(update.restart, std::vector<std::string>{"seed"});
  EXPECT_EQ(sim.params().get_text("rule"), "B3/S23");
  sim.step(4);
  twin.step(4);
  EXPECT_TRUE(test::images_match(sim.image(), twin.image(), 0));
  // The same value set again is no change.
  EXPECT_TRUE(sim.set_params(with(sim.params(), {"seed=3", "density=0.4"})).applied);

  Simulation heat(engine(), cpu_request("heat", {}, "cpu", 20, 20));
  update = heat.set_params(with(heat.params(), {"spots=3", "spot_value=5", "dt=0.1"}));
  EXPECT_FALSE(update.applied);
  EXPECT_EQ(update.restart, (std::vector<std::string>{"spot_value", "spots"}));
  EXPECT_EQ(heat.params().get_float("dt"), 0.2);
  Simulation gs(engine(), cpu_request("grayscott", {}, "cpu", 20, 20));
  update = gs.set_params(with(gs.params(), {"spot_radius=2"}));
  EXPECT_FALSE(update.applied);
  EXPECT_EQ(update.restart, std::vector<std::string>{"spot_radius"});
}

TEST(SimSetParams, APatternKeepsItsOwnRuleUnlessTheParametersSetOne) {
  const sim::LifePattern p = sim::parse_rle("x = 3, y = 1, rule = B36/S23\n3o!", "t");
  Simulation sim(engine(), cpu_request("life", {}, "cpu", 12, 12), SimulationStart{.pattern = p});
  const ParamSet defaults = KernelRegistry::builtin().get("life").default_params();
  ASSERT_TRUE(sim.set_params(with(defaults, {"border=dead"})).applied);
  EXPECT_EQ(sim.params().get_text("rule"), "B36/S23");
  EXPECT_EQ(sim.params().get_choice("border"), "dead");
  ASSERT_TRUE(sim.set_params(with(defaults, {"rule=B3/S23"})).applied);
  EXPECT_EQ(sim.params().get_text("rule"), "B3/S23");
}

}  // namespace
}  // namespace ks
