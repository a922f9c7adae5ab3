// Life's multistep variant (several generations per pass) against the CPU reference, k single steps of the
// byte variant: bit for bit on sizes no tile or word divides (1x1 to 2049x70), every rule of the parameter's
// choices and rules with births from 0 and survival on 8 neighbours, both borders, every pass length and step
// counts that are not multiples of it. Then the bitpacked one-step kernel on a larger random grid, the
// density view against the CPU's, painting, and a 65536 x 65536 world (512 MiB a buffer): a methuselah at its
// centre against the same pattern on a small grid, and a block across the torus's corner.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "sim/life_patterns.hpp"
#include "support/sim_support.hpp"

namespace ks {
namespace {

using sim_test::engine;
using sim_test::sim_request;

const std::pair<int, int> kSizes[] = {{1, 1},   {1023, 7},  {65, 129}, {7, 1023},
                                      {33, 31}, {2049, 70}, {96, 64}};
const char* const kRules[] = {"B3/S23", "B36/S23", "B2/S", "B3678/S34678", "B0/S8", "B1357/S02468"};
const long long kCheckpoints[] = {1, 5, 13, 37};  // steps reached, none a multiple of 8 but 1

// Random 0/255 cells, about 40% alive.
Image start_cells(int w, int h) {
  Image img = test::random_image(w, h, 1, ElemType::U8, std::uint32_t(w * 131 + h));
  for (auto& v : img.elements<std::uint8_t>()) v = v < 102 ? 255 : 0;
  return img;
}

TEST(SimMultistepCuda, EqualsTheCpuReferenceOnOddSizesForEveryRuleBorderAndPassLength) {
  KS_REQUIRE_GPU();
  for (auto [w, h] : kSizes)
    for (const char* border : {"torus", "dead"})
      for (const char* rule : kRules) {
        const std::vector<std::string> params = {fmt::format("border={}", border),
                                                 fmt::format("rule={}", rule)};
        const Image start = start_cells(w, h);
        Simulation reference(engine(), sim_request("life", params, Backend::Cpu, "cpu"), {.image = start});
        std::vector<Image> expected;
        for (long long n : kCheckpoints) {
          reference.step(n - reference.generation());
          expected.push_back(reference.image());
        }
        for (const char* k : {"1", "2", "4", "8"}) {
          std::vector<std::string> with_k = params;
          with_k.push_back(fmt::format("steps_per_pass={}", k));
          Simulation multi(engine(), sim_request("life", with_k, Backend::Cuda, "multistep"),
                           {.image = start});
          for (std::size_t i = 0; i < std::size(kCheckpoints); ++i) {
            multi.step(kCheckpoints[i] - multi.generation());
            ASSERT_TRUE(test::images_match(multi.image(), expected[i]))
                << w << "x" << h << " " << border << " " << rule << " k=" << k << " after " << kCheckpoints[i]
                << " steps";
          }
          EXPECT_EQ(multi.step_ms().size(), std::size_t(kCheckpoints[std::size(kCheckpoints) - 1]))
              << "one time per step, passes of several steps included";
        }
      }
}

TEST(SimMultistepCuda, EqualsTheBitpackedOneStepKernelOnALargerGrid) {
  KS_REQUIRE_GPU();
  for (const char* border : {"torus", "dead"}) {
    const std::vector<std::string> params = {fmt::format("border={}", border), "density=0.35", "seed=4"};
    Simulation one(engine(), sim_request("life", params, Backend::Cuda, "bitpacked", 3000, 2001));
    Simulation multi(engine(), sim_request("life", params, Backend::Cuda, "multistep", 3000, 2001));
    one.step(203);
    multi.step(203);
    EXPECT_TRUE(test::images_match(multi.image(), one.image())) << border;
    EXPECT_EQ(multi.population(), one.population());
  }
}

TEST(SimMultistepCuda, ANewPassLengthOrRuleAppliesToTheRunningState) {
  KS_REQUIRE_GPU();
  Simulation cpu(engine(), sim_request("life", {"density=0.3"}, Backend::Cpu, "cpu", 333, 129));
  Simulation multi(engine(), sim_request("life", {"density=0.3"}, Backend::Cuda, "multistep", 333, 129));
  cpu.step(11);
  multi.step(11);
  ParamSet p = multi.params();
  p.set("steps_per_pass", "2");
  p.set("rule", "B36/S23");
  ASSERT_TRUE(multi.set_params(p).applied);
  ASSERT_TRUE(cpu.set_params(p).applied);
  cpu.step(9);
  multi.step(9);
  EXPECT_TRUE(test::images_match(multi.image(), cpu.image()));
}

TEST(SimMultistepCuda, BlocksOtherThanAWarpAcrossAreUsageErrors) {
  KS_REQUIRE_GPU();
  for (BlockShape b : {BlockShape{16, 8}, BlockShape{32, 9}, BlockShape{64, 2}}) {
    const std::string msg = sim_test::usage_error(
        [&] { Simulation(engine(), sim_request("life", {}, Backend::Cuda, "multistep", 256, 256, b)); });
    EXPECT_NE(msg.find("--block 32xN"), std::string::npos) << msg;
  }
  EXPECT_NO_THROW(
      Simulation(engine(), sim_request("life", {}, Backend::Cuda, "multistep", 256, 256, {{32, 1}})));
}

TEST(SimMultistepCuda, DensityViewPaintAndPopulationMatchTheCpu) {
  KS_REQUIRE_GPU();
  for (const char* variant : {"bitpacked", "multistep"}) {
    Simulation gpu(engine(), sim_request("life", {"density=0.4"}, Backend::Cuda, variant, 1023, 517));
    Simulation cpu(engine(), sim_request("life", {"density=0.4"}, Backend::Cpu, "cpu_bitpacked", 1023, 517));
    gpu.step(21);
    cpu.step(21);
    gpu.paint(1022, 516, 9, 1);
    cpu.paint(1022, 516, 9, 1);
    gpu.paint(64, 3, 30, 0);
    cpu.paint(64, 3, 30, 0);
    EXPECT_EQ(gpu.population(), cpu.population()) << variant;
    for (const sim::DensityWindow w :
         {sim::DensityWindow{0, 0, 1, 1023, 517}, sim::DensityWindow{-7, -5, 3, 400, 200},
          sim::DensityWindow{0, 0, 64, 16, 9}, sim::DensityWindow{1000, 500, 5, 11, 7}})
      EXPECT_TRUE(test::images_match(gpu.density_view(w), cpu.density_view(w)))
          << variant << " window at " << w.x0 << "," << w.y0 << " x" << w.cells_per_pixel;
  }
}

// 65536 x 65536: 4.3e9 cells, two buffers of 512 MiB per simulation.
constexpr int kWorld = 65536;

TEST(SimMultistepCuda, AMethuselahAtTheCentreOfA65536SquaredWorldEvolvesAsOnASmallGrid) {
  KS_REQUIRE_GPU();
  const auto pattern = sim::builtin_pattern("r-pentomino");
  constexpr int kSmall = 512, kSteps = 100;  // it stays well inside 512 x 512 for 100 generations
  Simulation small(engine(), sim_request("life", {"border=dead"}, Backend::Cpu, "cpu", kSmall, kSmall),
                   {.pattern = pattern});
  small.step(kSteps);
  // The pattern sits at ((size - pattern) / 2); the small grid's window lies at the same offset from it.
  const int dx = (kWorld - pattern.width) / 2 - (kSmall - pattern.width) / 2;
  const int dy = (kWorld - pattern.height) / 2 - (kSmall - pattern.height) / 2;
  const Image expected = small.density_view({0, 0, 1, kSmall, kSmall});
  for (const char* variant : {"bitpacked", "multistep"}) {
    Simulation world(engine(), sim_request("life", {}, Backend::Cuda, variant, kWorld, kWorld),
                     {.pattern = pattern});
    world.step(kSteps);
    EXPECT_EQ(world.population(), small.population()) << variant;
    EXPECT_TRUE(test::images_match(world.density_view({dx, dy, 1, kSmall, kSmall}), expected)) << variant;
    // The whole world at 64 x 64 cells per pixel: every live cell counted once.
    const Image all = world.density_view({0, 0, 64, 1024, 1024});
    double live = 0;
    for (float v : all.elements<float>()) live += double(v) * 64 * 64;
    EXPECT_EQ((long long)live, small.population()) << variant;
  }
}

TEST(SimMultistepCuda, ABlockAcrossTheCornerOfA65536SquaredTorusIsStill) {
  KS_REQUIRE_GPU();
  for (const char* variant : {"bitpacked", "multistep"}) {
    Simulation world(engine(), sim_request("life", {}, Backend::Cuda, variant, kWorld, kWorld),
                     {.pattern = sim::builtin_pattern("blinker")});
    for (int x : {0, kWorld - 1})
      for (int y : {0, kWorld - 1}) world.paint(x, y, 0, 1);
    world.step(13);
    EXPECT_EQ(world.population(), 4 + 3) << variant;  // the block, and the blinker at its other phase
    for (int x : {0, kWorld - 1})
      for (int y : {0, kWorld - 1})
        EXPECT_EQ(world.density_view({x, y, 1, 1, 1}).elements<float>()[0], 1.0f)
            << variant << " " << x << "," << y;
  }
}

}  // namespace
}  // namespace ks
