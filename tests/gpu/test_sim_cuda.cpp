// Every CUDA variant of the simulations against the CPU reference after 1000 steps: Life bit-exact, heat and
// Gray-Scott within 1e-5 (the shared arithmetic of sim_math.hpp is meant to make them bit-identical; the
// tolerance only keeps a difference of the last bit from failing the test where it would not matter), on a
// random 1000x1000 grid and on sizes no block divides, for every border kind, several Life rules and several
// block shapes. Then the device-side counters, painting, display images, and blocks the device cannot run.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cctype>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "sim/simulation.hpp"
#include "support/sim_support.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

Engine& engine() {
  static Engine e(Engine::Options{0});
  return e;
}

constexpr int kSteps = 1000;
constexpr double kFieldTolerance = 1e-5;

const BlockShape kBlocks[] = {{32, 8}, {16, 16}, {128, 1}, {1, 64}, {8, 8}, {64, 4}};

struct Case {
  std::string kernel;
  int width, height;
  std::vector<std::string> params;  // "border=dead", "rule=B36/S23", ...
};

std::string case_name(const Case& c) {
  std::string s = fmt::format("{}_{}x{}", c.kernel, c.width, c.height);
  for (const auto& p : c.params) s += "_" + p;
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}
void PrintTo(const Case& c, std::ostream* os) {
  *os << case_name(c);
}

SimulationRequest request_for(const Case& c, Backend backend, const std::string& variant,
                              std::optional<BlockShape> block = std::nullopt) {
  SimulationRequest r;
  r.kernel = c.kernel;
  r.params = KernelRegistry::builtin().get(c.kernel).default_params();
  for (const auto& p : c.params) r.params.set_assignment(p);
  r.backend = backend;
  r.variant = variant;
  r.block = block;
  return r;
}

// Life: random 0/255 cells (about 35% alive); fields: uniform random values in 0..1.
Image start_image(const Case& c) {
  const std::uint32_t seed = std::uint32_t(c.width * 7919 + c.height);
  if (c.kernel != "life") return test::random_image(c.width, c.height, 1, ElemType::F32, seed);
  Image img = test::random_image(c.width, c.height, 1, ElemType::U8, seed);
  for (auto& v : img.elements<std::uint8_t>()) v = v < 90 ? 255 : 0;
  return img;
}

using sim_test::max_difference;

class SimCudaVsCpu : public ::testing::TestWithParam<Case> {};

TEST_P(SimCudaVsCpu, EveryVariantEqualsTheCpuReferenceAfter1000Steps) {
  KS_REQUIRE_GPU();
  const Case& c = GetParam();
  const Image start = start_image(c);
  Simulation reference(engine(), request_for(c, Backend::Cpu, "cpu"), SimulationStart{.image = start});
  reference.step(kSteps);
  const std::vector<Image> expected = reference.fields();

  const KernelSpec& spec = KernelRegistry::builtin().get(c.kernel);
  int block_index = c.width + c.height;
  int checked = 0;
  for (const auto& v : spec.variants) {
    if (v.backend != Backend::Cuda) continue;
    // Each variant with the default block and one more, chosen by the case so that all shapes get covered.
    for (std::optional<BlockShape> block :
         {std::optional<BlockShape>{}, std::optional<BlockShape>{kBlocks[block_index++ % 6]}}) {
      SCOPED_TRACE(fmt::format("variant {} block {}", v.name, block ? to_string(*block) : "default"));
      Simulation sim(engine(), request_for(c, Backend::Cuda, v.name, sim_test::block_for_variant(v.name, block)),
                     SimulationStart{.image = start});
      sim.step(kSteps);
      const std::vector<Image> got = sim.fields();
      ASSERT_EQ(got.size(), expected.size());
      for (std::size_t f = 0; f < got.size(); ++f) {
        if (c.kernel == "life") {
          EXPECT_TRUE(test::images_match(got[f], expected[f]));
        } else {
          EXPECT_LE(max_difference(got[f], expected[f]), kFieldTolerance) << "field " << f;
        }
      }
      if (c.kernel == "life") {
        EXPECT_EQ(sim.population(), reference.population());
      } else {
        // Sums in double of the same cells (or of cells within the tolerance): equal up to that tolerance.
        EXPECT_NEAR(sim.total(), reference.total(),
                    kFieldTolerance * c.width * c.height + 1e-12 * std::abs(reference.total()));
      }
      // The display image on the device is the host image.
      EXPECT_TRUE(test::images_match(download_device_image(sim.device_image()), sim.image()));
      EXPECT_EQ(sim.step_ms().size(), std::size_t(kSteps));
      ++checked;
    }
  }
  EXPECT_GE(checked, 4);
}

std::vector<Case> cases() {
  std::vector<Case> out;
  const std::pair<int, int> odd[] = {{1, 1}, {3, 5}, {1023, 7}, {257, 129}};
  for (const char* border : {"border=torus", "border=dead"}) {
    for (const char* rule : {"rule=B3/S23", "rule=B36/S23"})
      out.push_back({"life", 1000, 1000, {border, rule}});
    for (auto [w, h] : odd)
      for (const char* rule : {"rule=B3/S23", "rule=B36/S23", "rule=B2/S", "rule=B3678/S34678"})
        out.push_back({"life", w, h, {border, rule}});
  }
  for (const char* boundary : {"boundary=periodic", "boundary=insulated", "boundary=fixed"}) {
    out.push_back({"heat", 1000, 1000, {boundary, "dt=0.25", "boundary_value=0.5"}});
    for (auto [w, h] : odd) out.push_back({"heat", w, h, {boundary, "dt=0.25", "boundary_value=0.5"}});
  }
  for (const char* boundary : {"boundary=periodic", "boundary=insulated"}) {
    out.push_back({"grayscott", 1000, 1000, {boundary, "preset=coral"}});
    for (auto [w, h] : odd) out.push_back({"grayscott", w, h, {boundary, "preset=mitosis"}});
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Sim, SimCudaVsCpu, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return case_name(info.param); });

// Every kernel of every variant on small grids for a few steps: quick enough for compute-sanitizer (memcheck,
// racecheck; scripts/gpu-check runs SimCudaSmall* under both), and it covers the counters and the display
// image.
TEST(SimCudaSmall, EveryVariantOnSmallGridsMatchesTheCpu) {
  KS_REQUIRE_GPU();
  const std::pair<int, int> sizes[] = {{1, 1}, {3, 5}, {33, 17}, {130, 70}};
  const std::vector<std::vector<std::string>> settings[] = {
      {{"border=torus"}, {"border=dead", "rule=B36/S23"}},
      {{"boundary=periodic"}, {"boundary=fixed", "boundary_value=0.5"}, {"boundary=insulated"}},
      {{"boundary=periodic"}, {"boundary=insulated"}}};
  const char* const kernels[] = {"life", "heat", "grayscott"};
  for (int k = 0; k < 3; ++k)
    for (const auto& params : settings[k])
      for (auto [w, h] : sizes) {
        const Case c{kernels[k], w, h, params};
        const Image start = start_image(c);
        Simulation reference(engine(), request_for(c, Backend::Cpu, "cpu"), SimulationStart{.image = start});
        reference.step(3);
        for (const auto& v : KernelRegistry::builtin().get(c.kernel).variants) {
          if (v.backend != Backend::Cuda) continue;
          for (BlockShape block : {BlockShape{32, 8}, BlockShape{16, 16}, BlockShape{1, 64}}) {
            SCOPED_TRACE(fmt::format("{} {} block {}", case_name(c), v.name, to_string(block)));
            Simulation sim(engine(), request_for(c, Backend::Cuda, v.name, sim_test::block_for_variant(v.name, block)),
                           SimulationStart{.image = start});
            sim.step(3);
            const auto got = sim.fields(), expected = reference.fields();
            for (std::size_t f = 0; f < got.size(); ++f) {
              if (c.kernel == "life")
                EXPECT_TRUE(test::images_match(got[f], expected[f]));
              else
                EXPECT_LE(max_difference(got[f], expected[f]), kFieldTolerance);
            }
            if (c.kernel == "life")
              EXPECT_EQ(sim.population(), reference.population());
            else
              EXPECT_NEAR(sim.total(), reference.total(), kFieldTolerance * w * h + 1e-9);
            EXPECT_TRUE(test::images_match(download_device_image(sim.device_image()), sim.image()));
          }
        }
      }
}

// Painting, counting and reset on the device agree with the CPU backend.
TEST(SimCuda, PaintPopulationTotalAndResetMatchTheCpu) {
  KS_REQUIRE_GPU();
  for (const char* variant : {"naive", "tiled", "bitpacked"}) {
    SCOPED_TRACE(variant);
    SimulationRequest r = request_for({"life", 130, 70, {}}, Backend::Cuda, variant);
    r.width = 130, r.height = 70;
    SimulationRequest rc = r;
    rc.backend = Backend::Cpu, rc.variant = "cpu";
    Simulation gpu(engine(), r), cpu(engine(), rc);
    for (Simulation* s : {&gpu, &cpu}) {
      s->paint(64, 30, 9, 1);
      s->paint(0, 0, 5, 0);
      s->paint(129, 69, 3, 1);
      s->step(37);
    }
    EXPECT_TRUE(test::images_match(gpu.image(), cpu.image()));
    EXPECT_EQ(gpu.population(), cpu.population());
    gpu.reset();
    cpu.reset();
    EXPECT_TRUE(test::images_match(gpu.image(), cpu.image()));
  }
  for (const char* kernel : {"heat", "grayscott"}) {
    SCOPED_TRACE(kernel);
    for (const char* variant : {"naive", "strip"}) {
      SimulationRequest r = request_for({kernel, 0, 0, {}}, Backend::Cuda, variant);
      r.width = 99, r.height = 41;
      SimulationRequest rc = r;
      rc.backend = Backend::Cpu, rc.variant = "cpu";
      Simulation gpu(engine(), r), cpu(engine(), rc);
      for (Simulation* s : {&gpu, &cpu}) {
        s->paint(50, 20, 6, 0.25);
        s->step(50);
      }
      EXPECT_LE(max_difference(gpu.image(), cpu.image()), kFieldTolerance);
      EXPECT_NEAR(gpu.total(), cpu.total(), kFieldTolerance * 99 * 41 + 1e-12 * std::abs(cpu.total()));
      EXPECT_EQ(gpu.device_fields().size(), std::string(kernel) == "heat" ? 1u : 2u);
    }
  }
}

TEST(SimCuda, ReportsPerStepTimesAgainstTheCopyBandwidth) {
  KS_REQUIRE_GPU();
  SimulationRequest r = request_for({"heat", 0, 0, {}}, Backend::Cuda, "strip");
  r.width = 1024, r.height = 512;
  Simulation sim(engine(), r);
  sim.step(20);
  const SimulationReport rep = sim.report();
  EXPECT_EQ(rep.step_time.count, 20);
  EXPECT_GT(rep.step_time.min_ms, 0);
  EXPECT_EQ(rep.bytes_per_step, 2u * 1024 * 512 * 4);
  EXPECT_GT(rep.copy_bandwidth_gbps, 0);
  EXPECT_GT(rep.percent_of_copy, 0);
  ASSERT_TRUE(rep.occupancy.has_value());
  EXPECT_EQ(rep.occupancy->kernel_name, "heat_strip");
  ASSERT_TRUE(rep.block.has_value());
  EXPECT_EQ(*rep.block, (BlockShape{32, 8}));
}

TEST(SimCuda, BlocksTheDeviceCannotRunAreUsageErrors) {
  KS_REQUIRE_GPU();
  auto usage = [](const std::string& kernel, const std::string& variant, BlockShape block) -> std::string {
    SimulationRequest r = request_for({kernel, 0, 0, {}}, Backend::Cuda, variant, block);
    r.width = r.height = 64;
    try {
      Simulation sim(engine(), r);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage) << e.full_message();
      return e.full_message();
    }
    ADD_FAILURE() << variant << " ran block " << to_string(block);
    return {};
  };
  for (const char* v : {"naive", "tiled", "bitpacked"}) {
    EXPECT_NE(usage("life", v, {2048, 1}).find("threads per block"), std::string::npos) << v;
    EXPECT_NE(usage("life", v, {0, 8}).find("no threads"), std::string::npos) << v;
  }
  for (const char* v : {"naive", "strip"})
    EXPECT_NE(usage("heat", v, {64, 32}).find("1024"), std::string::npos);
  EXPECT_NE(usage("heat", "strip", {24, 8}).find("multiple of 32"), std::string::npos);
  EXPECT_NE(usage("grayscott", "bitpacked", {32, 8}).find("no variant"), std::string::npos);
}

}  // namespace
}  // namespace ks
