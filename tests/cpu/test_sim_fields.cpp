// Heat and Gray-Scott on the CPU backend against what the equations say: conservation on periodic and
// insulated grids, the decay rate of a sine mode under the discrete 5-point scheme, a fixed boundary, the
// stability limit refused with the limit in the message, and Gray-Scott's reaction terms on a uniform state
// against the ODE integrated here in double precision.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "sim/simulation.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

Engine& engine() {
  static Engine e(Engine::Options{0});
  return e;
}

SimulationRequest field_request(const std::string& kernel, std::vector<std::string> assignments, int w = 0,
                                int h = 0) {
  SimulationRequest r;
  r.kernel = kernel;
  r.params = KernelRegistry::builtin().get(kernel).default_params();
  for (const auto& a : assignments) r.params.set_assignment(a);
  r.backend = Backend::Cpu;
  r.width = w;
  r.height = h;
  return r;
}

Image field_image(int w, int h, const std::function<float(int, int)>& f) {
  Image img(w, h, 1, ElemType::F32);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) img.row<float>(y)[x] = f(x, y);
  return img;
}

double sum(const Image& f) {
  double s = 0;
  for (float v : f.elements<float>()) s += v;
  return s;
}

TEST(SimHeat, PeriodicAndInsulatedGridsConserveTheTotal) {
  const Image start = test::random_image(67, 45, 1, ElemType::F32, 11);
  for (const char* boundary : {"periodic", "insulated"}) {
    SCOPED_TRACE(boundary);
    Simulation sim(engine(), field_request("heat", {std::string("boundary=") + boundary, "dt=0.25"}),
                   SimulationStart{.image = start});
    const double before = sim.total();
    EXPECT_NEAR(before, sum(start), 1e-9 * before);
    sim.step(1000);
    // Each step rounds every cell once (about 6e-8 relative); the sum drifts far less than 1e-5 of itself.
    EXPECT_NEAR(sim.total(), before, 1e-5 * before);
    // ...while the field itself has flattened out towards its mean.
    const Image u = sim.image();
    const auto [lo, hi] = std::minmax_element(u.elements<float>().begin(), u.elements<float>().end());
    EXPECT_LT(*hi - *lo, 0.2f);
  }
}

TEST(SimHeat, SineModeDecaysAtTheRateOfTheDiscreteScheme) {
  // u = sin(2 pi k x / W) sin(2 pi l y / H) is an eigenvector of the periodic 5-point Laplacian with
  // eigenvalue -4 (sin^2(pi k / W) + sin^2(pi l / H)); one explicit step multiplies it by g = 1 + r *
  // eigenvalue.
  const int w = 64, h = 40, k = 3, l = 2, steps = 300;
  const double diffusivity = 0.8, dt = 0.3, r = diffusivity * dt;
  const double pi = std::numbers::pi;
  const double g = 1 - 4 * r * (std::pow(std::sin(pi * k / w), 2) + std::pow(std::sin(pi * l / h), 2));
  auto mode = [&](int x, int y) { return std::sin(2 * pi * k * x / w) * std::sin(2 * pi * l * y / h); };
  Simulation sim(
      engine(), field_request("heat", {"boundary=periodic", "diffusivity=0.8", "dt=0.3"}),
      SimulationStart{.image = field_image(w, h, [&](int x, int y) { return float(mode(x, y)); })});
  for (int done = 0; done < steps; done += 100) {
    sim.step(100);
    const Image u = sim.image();
    // Amplitude by projection on the mode (its squared norm is w h / 4), and the rest of the field, which
    // must stay at rounding level.
    double dot = 0, rest = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) dot += u.row<float>(y)[x] * mode(x, y);
    const double amplitude = dot / (w * h / 4.0);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        rest = std::max(rest, std::abs(u.row<float>(y)[x] - amplitude * mode(x, y)));
    const double expected = std::pow(g, done + 100);
    EXPECT_NEAR(amplitude, expected, 1e-4 * expected) << "after " << done + 100 << " steps";
    EXPECT_LT(rest, 1e-5);
  }
  // And the continuous rate is not what the scheme gives (the test would not tell them apart otherwise).
  const double continuous =
      std::exp(-diffusivity * 4 * pi * pi * (double(k * k) / (w * w) + double(l * l) / (h * h)) * dt * steps);
  EXPECT_GT(std::abs(continuous - std::pow(g, steps)), 1e-3 * std::pow(g, steps));
}

TEST(SimHeat, FixedBoundaryPullsTheFieldToItsValue) {
  Simulation sim(engine(), field_request("heat", {"boundary=fixed", "boundary_value=2", "dt=0.25"}),
                 SimulationStart{.image = field_image(9, 7, [](int, int) { return 0.0f; })});
  sim.step(1);
  const Image u = sim.image();
  // One step: edge cells get r * (outside neighbours) * 2, corners twice that, the interior stays 0.
  EXPECT_FLOAT_EQ(u.row<float>(3)[0], 0.25f * 2);
  EXPECT_FLOAT_EQ(u.row<float>(0)[0], 0.25f * 4);
  EXPECT_FLOAT_EQ(u.row<float>(3)[4], 0.0f);
  sim.step(3000);
  const Image settled = sim.image();
  for (float v : settled.elements<float>()) EXPECT_NEAR(v, 2.0f, 1e-3f);
}

TEST(SimHeat, TimeStepBeyondTheStabilityLimitIsRefusedWithTheLimit) {
  try {
    Simulation sim(engine(), field_request("heat", {"diffusivity=2", "dt=0.2"}, 16, 16));
    ADD_FAILURE() << "an unstable dt was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("dt <= 0.125"), std::string::npos) << e.what();
    EXPECT_NE(e.hint().find("dt=0.125"), std::string::npos) << e.hint();
  }
  // The limit itself is stable and accepted.
  Simulation ok(engine(), field_request("heat", {"diffusivity=2", "dt=0.125"}, 16, 16));
  ok.step(10);
  EXPECT_TRUE(std::isfinite(ok.total()));
}

TEST(SimGrayScott, UniformStateFollowsTheReactionOde) {
  // Every cell equal: the Laplacian is 0 on a periodic grid, so each cell follows du = -u v^2 + F (1 - u),
  // dv = u v^2 - (F + k) v with explicit Euler steps.
  const double F = 0.04, k = 0.06, dt = 1;
  Image gray(12, 9, 1, ElemType::F32);
  for (float& v : gray.elements<float>()) v = 0.8f;  // v = 0.2, u = 0.6
  Simulation sim(engine(), field_request("grayscott", {"F=0.04", "k=0.06", "boundary=periodic"}),
                 SimulationStart{.image = gray});
  double u = 1 - 2 * 0.2, v = 0.2;
  for (int i = 0; i < 200; ++i) {
    const double uvv = u * v * v;
    const double nu = u + dt * (-uvv + F * (1 - u));
    const double nv = v + dt * (uvv - (F + k) * v);
    u = nu, v = nv;
  }
  sim.step(200);
  const auto fields = sim.fields();
  ASSERT_EQ(fields.size(), 2u);
  for (float x : fields[0].elements<float>()) ASSERT_NEAR(x, u, 1e-4);
  for (float x : fields[1].elements<float>()) ASSERT_NEAR(x, v, 1e-4);
  EXPECT_GT(std::abs(v - 0.2), 0.01);  // it moved
}

TEST(SimGrayScott, SeedsGrowIntoAPatternThatStaysInRange) {
  // Mitosis: the seeds turn into spots that live on; with a kill rate past the pattern region (F = 0.01,
  // k = 0.07) v dies out everywhere.
  auto run = [](std::vector<std::string> params) {
    Simulation sim(engine(), field_request("grayscott", std::move(params), 96, 80));
    sim.step(2000);
    return sim.fields();
  };
  const auto alive = run({"preset=mitosis"});
  float v_min = 1, v_max = 0;
  for (int f = 0; f < 2; ++f)
    for (float x : alive[std::size_t(f)].elements<float>()) {
      ASSERT_TRUE(std::isfinite(x));
      ASSERT_GE(x, 0.0f);
      ASSERT_LE(x, 1.0f);
      if (f == 1) v_min = std::min(v_min, x), v_max = std::max(v_max, x);
    }
  EXPECT_GT(v_max, 0.2f);
  EXPECT_LT(v_min, 0.01f);
  const auto dead = run({"F=0.01", "k=0.07"});
  for (float x : dead[1].elements<float>()) ASSERT_LT(x, 1e-3f);
  // Without seeds the trivial state u = 1, v = 0 is a fixed point, exactly.
  Simulation still(engine(), field_request("grayscott", {"spots=0"}, 20, 20));
  still.step(100);
  const auto trivial = still.fields();
  for (float x : trivial[0].elements<float>()) ASSERT_EQ(x, 1.0f);
  for (float x : trivial[1].elements<float>()) ASSERT_EQ(x, 0.0f);
}

TEST(SimGrayScott, RefusesAnUnstableStepAndAPresetWithItsOwnFk) {
  try {
    Simulation sim(engine(), field_request("grayscott", {"Du=0.5", "dt=1"}, 16, 16));
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("dt <= 0.5"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Simulation(engine(), field_request("grayscott", {"preset=coral", "F=0.03"}, 16, 16)), Error);
}

}  // namespace
}  // namespace ks
