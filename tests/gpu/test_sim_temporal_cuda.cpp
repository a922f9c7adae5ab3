// Heat and Gray-Scott's `temporal` variant (k steps per pass, gpu/sim/cuda/field_temporal.cu) against k
// single steps, bit for bit: the CPU reference (the one-step CPU kernels run once per step) and the CUDA
// strip variant (one step per pass), for every k it is built for, every boundary, every Gray-Scott preset,
// sizes no tile divides (1x1, 1023x7, 7x1023, 130x70, 257x129) and step counts that are not multiples of k
// (the shorter passes that finish them). Then counts split across calls, block shapes, per-step times and
// refusals.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>

#include "core/error.hpp"
#include "sim/sim_params.hpp"
#include "support/sim_support.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

using sim_test::engine;
using sim_test::sim_request;

// Every bit of every cell.
::testing::AssertionResult same_bits(const std::vector<Image>& got, const std::vector<Image>& expected) {
  if (got.size() != expected.size()) return ::testing::AssertionFailure() << "field counts differ";
  for (std::size_t f = 0; f < got.size(); ++f) {
    const auto a = got[f].elements<float>(), b = expected[f].elements<float>();
    if (a.size() != b.size()) return ::testing::AssertionFailure() << "field " << f << ": sizes differ";
    for (std::size_t i = 0; i < a.size(); ++i)
      if (std::memcmp(&a[i], &b[i], sizeof(float)) != 0)
        return ::testing::AssertionFailure()
               << fmt::format("field {} cell ({}, {}): {:.9g}, expected {:.9g}", f,
                              i % std::size_t(got[f].width()), i / std::size_t(got[f].width()), a[i], b[i]);
  }
  return ::testing::AssertionSuccess();
}

struct Setting {
  std::string kernel;
  std::vector<std::string> params;
};

std::vector<Setting> settings() {
  std::vector<Setting> out;
  for (const char* b : {"boundary=periodic", "boundary=insulated", "boundary=fixed"})
    out.push_back({"heat", {b, "dt=0.25", "boundary_value=0.5"}});
  out.push_back({"heat", {"boundary=fixed", "boundary_value=-2", "diffusivity=0.5", "dt=0.3"}});
  for (const auto& preset : sim::grayscott_presets())
    for (const char* b : {"boundary=periodic", "boundary=insulated"})
      out.push_back({"grayscott", {b, "preset=" + preset.name}});
  out.push_back(
      {"grayscott", {"boundary=periodic", "preset=custom", "F=0.04", "k=0.06", "Du=0.16", "Dv=0.08"}});
  return out;
}

Image start_for(int w, int h) {
  return test::random_image(w, h, 1, ElemType::F32, std::uint32_t(w * 31 + h));
}

std::vector<std::string> plus(std::vector<std::string> params, const std::string& more) {
  params.push_back(more);
  return params;
}

TEST(SimTemporalCuda, KStepsPerPassEqualKSingleStepsBitForBit) {
  KS_REQUIRE_GPU();
  const std::pair<int, int> sizes[] = {{1, 1}, {1023, 7}, {7, 1023}, {130, 70}, {257, 129}};
  for (const Setting& s : settings())
    for (auto [w, h] : sizes) {
      const Image start = start_for(w, h);
      // 13 steps: no k > 1 divides it, so every k also runs its shorter passes (8 + 4 + 1, 4*3 + 1, 2*6 + 1).
      const long long steps = w * h > 100000 ? 13 : 29;
      Simulation cpu(engine(), sim_request(s.kernel, s.params, Backend::Cpu, "cpu"),
                     SimulationStart{.image = start});
      cpu.step(steps);
      Simulation strip(engine(), sim_request(s.kernel, s.params, Backend::Cuda, "strip"),
                       SimulationStart{.image = start});
      strip.step(steps);
      ASSERT_TRUE(same_bits(strip.fields(), cpu.fields())) << "the one-step CUDA variant";
      for (const char* k : {"1", "2", "4", "8"}) {
        SCOPED_TRACE(fmt::format("{} {} {}x{} steps_per_pass={} {} steps", s.kernel, fmt::join(s.params, " "),
                                 w, h, k, steps));
        Simulation t(engine(),
                     sim_request(s.kernel, plus(s.params, std::string("steps_per_pass=") + k), Backend::Cuda,
                                 "temporal"),
                     SimulationStart{.image = start});
        t.step(steps);
        EXPECT_TRUE(same_bits(t.fields(), cpu.fields())) << "against the CPU's single steps";
        EXPECT_TRUE(same_bits(t.fields(), strip.fields())) << "against CUDA's single steps";
        EXPECT_EQ(t.generation(), steps);
        EXPECT_EQ(t.step_ms().size(), std::size_t(steps)) << "one time per step, passes or not";
        EXPECT_TRUE(test::images_match(download_device_image(t.device_image()), t.image()));
      }
    }
}

// Counts given one call at a time (the app's steps per frame: 1, 3, 7, ...) end where one call would.
TEST(SimTemporalCuda, CountsSplitAcrossCallsAndBlocksGiveTheSameState) {
  KS_REQUIRE_GPU();
  const int w = 333, h = 97;
  const Image start = start_for(w, h);
  for (const char* kernel : {"heat", "grayscott"}) {
    Simulation cpu(engine(), sim_request(kernel, {}, Backend::Cpu, "cpu"), SimulationStart{.image = start});
    cpu.step(1 + 3 + 7 + 8 + 9);
    for (BlockShape block : {BlockShape{32, 8}, BlockShape{16, 16}, BlockShape{1, 64}, BlockShape{128, 1},
                             BlockShape{32, 1}, BlockShape{96, 2}}) {
      SCOPED_TRACE(fmt::format("{} block {}", kernel, to_string(block)));
      Simulation t(engine(),
                   sim_request(kernel, {"steps_per_pass=8"}, Backend::Cuda, "temporal", 0, 0, block),
                   SimulationStart{.image = start});
      for (long long n : {1, 3, 7, 8, 9}) t.step(n);
      EXPECT_TRUE(same_bits(t.fields(), cpu.fields()));
      EXPECT_EQ(t.step_ms().size(), 28u);
    }
  }
}

// k changes on a running state like the coefficients do (Simulation::set_params): the state and the
// generation stay, the next passes run with the new k.
TEST(SimTemporalCuda, StepsPerPassChangesOnARunningState) {
  KS_REQUIRE_GPU();
  const Image start = start_for(200, 150);
  Simulation cpu(engine(), sim_request("heat", {"boundary=fixed", "boundary_value=1"}, Backend::Cpu, "cpu"),
                 SimulationStart{.image = start});
  cpu.step(30);
  Simulation t(engine(),
               sim_request("heat", {"boundary=fixed", "boundary_value=1", "steps_per_pass=2"}, Backend::Cuda,
                           "temporal"),
               SimulationStart{.image = start});
  t.step(11);
  ASSERT_TRUE(t.set_params(sim_test::with(t.params(), {"steps_per_pass=8"})).applied);
  t.step(19);
  EXPECT_EQ(t.generation(), 30);
  EXPECT_TRUE(same_bits(t.fields(), cpu.fields()));
  EXPECT_EQ(t.report().occupancy->kernel_name, "heat_temporal<8>");
}

TEST(SimTemporalCuda, ReportsPerStepTimesAndRefusesPartialWarps) {
  KS_REQUIRE_GPU();
  Simulation t(engine(),
               sim_request("grayscott", {"steps_per_pass=4"}, Backend::Cuda, "temporal", 1024, 512));
  t.step(40);
  const SimulationReport rep = t.report();
  EXPECT_EQ(rep.step_time.count, 40);
  EXPECT_GT(rep.step_time.min_ms, 0);
  ASSERT_TRUE(rep.occupancy.has_value());
  EXPECT_EQ(rep.occupancy->kernel_name, "grayscott_temporal<4>");
  const std::string message = sim_test::usage_error([] {
    Simulation s(engine(), sim_request("heat", {}, Backend::Cuda, "temporal", 64, 64, BlockShape{24, 1}));
  });
  EXPECT_NE(message.find("multiple of 32"), std::string::npos) << message;
}

}  // namespace
}  // namespace ks
