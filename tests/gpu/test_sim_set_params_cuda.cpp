// Simulation::set_params on the CUDA backend (GPU machine; skipped without a device): every CUDA variant
// takes a new rule, border, rate or boundary on its running state and then equals the CPU backend given the
// same change at the same generation (Life bit-exact, fields within 1e-5), on a grid no block divides; a Life
// border change swaps the kernel instance (the occupancy report names it); a live change through the session
// keeps the GPU simulation, its frame on the device and its generation.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/device_image_ref.hpp"
#include "core/error.hpp"
#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "session/session.hpp"
#include "sim/simulation.hpp"
#include "support/sim_support.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

using sim_test::engine;
using sim_test::max_difference;
using sim_test::sim_request;
using sim_test::with;

struct Change {
  std::string kernel;
  std::vector<std::string> before, after;  // parameters at the start, and those set after the first steps
};

TEST(SimSetParamsCuda, EveryVariantTakesTheChangeLikeTheCpu) {
  KS_REQUIRE_GPU();
  const int w = 333, h = 97;
  const Change changes[] = {
      {"life", {"border=torus", "rule=B3/S23"}, {"border=dead", "rule=B36/S23"}},
      {"life", {"border=dead", "rule=B3/S23"}, {"border=torus", "rule=B2/S"}},
      {"heat",
       {"boundary=insulated", "dt=0.2"},
       {"boundary=fixed", "boundary_value=0.5", "diffusivity=0.5", "dt=0.4"}},
      {"grayscott", {"preset=coral"}, {"preset=mitosis", "boundary=insulated"}},
  };
  for (const Change& c : changes) {
    Image start = test::random_image(w, h, 1, c.kernel == "life" ? ElemType::U8 : ElemType::F32, 17);
    if (c.kernel == "life")
      for (auto& v : start.elements<std::uint8_t>()) v = v < 90 ? 255 : 0;
    Simulation cpu(engine(), sim_request(c.kernel, c.before, Backend::Cpu, "cpu"),
                   SimulationStart{.image = start});
    cpu.step(40);
    ASSERT_TRUE(cpu.set_params(with(cpu.params(), c.after)).applied);
    cpu.step(60);
    const std::vector<Image> expected = cpu.fields();
    for (const auto& v : KernelRegistry::builtin().get(c.kernel).variants) {
      if (v.backend != Backend::Cuda) continue;
      for (std::optional<BlockShape> block :
           {std::optional<BlockShape>{}, std::optional<BlockShape>{{64, 4}}}) {
        SCOPED_TRACE(fmt::format("{} {} block {}", c.kernel, v.name, block ? to_string(*block) : "default"));
        Simulation gpu(engine(), sim_request(c.kernel, c.before, Backend::Cuda, v.name, 0, 0,
                                             sim_test::block_for_variant(v.name, block)),
                       SimulationStart{.image = start});
        gpu.step(40);
        const ParamUpdate update = gpu.set_params(with(gpu.params(), c.after));
        ASSERT_TRUE(update.applied);
        EXPECT_EQ(gpu.generation(), 40);
        gpu.step(60);
        EXPECT_EQ(gpu.generation(), 100);
        const std::vector<Image> got = gpu.fields();
        ASSERT_EQ(got.size(), expected.size());
        for (std::size_t f = 0; f < got.size(); ++f) {
          if (c.kernel == "life")
            EXPECT_TRUE(test::images_match(got[f], expected[f]));
          else
            EXPECT_LE(max_difference(got[f], expected[f]), 1e-5) << "field " << f;
        }
        EXPECT_TRUE(test::images_match(download_device_image(gpu.device_image()), gpu.image()));
        EXPECT_EQ(gpu.step_ms().size(), 100u) << "the step times of both parameter sets";
      }
    }
  }
}

TEST(SimSetParamsCuda, ALifeBorderChangeRunsTheOtherKernelInstance) {
  KS_REQUIRE_GPU();
  for (const char* variant : {"naive", "tiled", "bitpacked"}) {
    SCOPED_TRACE(variant);
    Simulation sim(engine(), sim_request("life", {"border=torus"}, Backend::Cuda, variant, 200, 100));
    ASSERT_TRUE(sim.report().occupancy);
    EXPECT_NE(sim.report().occupancy->kernel_name.find("<torus>"), std::string::npos);
    ASSERT_TRUE(sim.set_params(with(sim.params(), {"border=dead"})).applied);
    EXPECT_NE(sim.report().occupancy->kernel_name.find("<dead>"), std::string::npos)
        << sim.report().occupancy->kernel_name;
    // A refused change leaves the launch as it was.
    EXPECT_THROW(sim.set_params(KernelRegistry::builtin().get("heat").default_params()), Error);
    EXPECT_NE(sim.report().occupancy->kernel_name.find("<dead>"), std::string::npos);
  }
}

}  // namespace

namespace app {
namespace {

TEST(SessionSimParamsCuda, AHeatRateChangeKeepsTheGpuSimulationAndItsGeneration) {
  KS_REQUIRE_GPU();
  Session::Options o;
  o.cpu_threads = 2;
  Session s(o);
  s.open_sample();
  s.select_kernel("heat");
  s.set_backend(Backend::Cuda);
  s.simulation().set_playing(false);
  s.simulation().set_grid_size(300, 201);
  s.run_now();
  s.simulation().step(25);
  s.wait_idle();
  s.set_param("diffusivity", "0.5");
  s.set_param("boundary", "periodic");
  s.run_now();
  EXPECT_FALSE(s.simulation().carried_over());
  EXPECT_EQ(s.simulation().generation(), 25);
  s.simulation().step(25);
  s.wait_idle();
  EXPECT_EQ(s.simulation().generation(), 50);
  const ui::DisplayFrame f = s.display_frame();
  ASSERT_TRUE(f.output_device);

  Engine engine(Engine::Options{2});
  Simulation cpu(engine, sim_request("heat", {}, Backend::Cpu, "cpu", 300, 201));
  cpu.step(25);
  ASSERT_TRUE(cpu.set_params(with(cpu.params(), {"diffusivity=0.5", "boundary=periodic"})).applied);
  cpu.step(25);
  EXPECT_LE(max_difference(download_device_image(f.output_device), cpu.image()), 1e-5);
}

}  // namespace
}  // namespace app
}  // namespace ks
