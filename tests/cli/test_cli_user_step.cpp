// `sim --kernel-file FILE.cu --compare KERNEL[:VARIANT]`: a user's step kernel checked against the built-in
// simulation run from the same first state for as many steps. Without a GPU the request is still checked (a
// simulation that does not fit the kernel's cells, an unknown variant or parameter, a tolerance below 0, the
// reference's options without --compare: exit 2, nothing written); with one (KS_REQUIRE_GPU) the Life template
// matches the built-in on odd sizes, a wrong rule differs (exit 1), and a heat kernel matches heat.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "support/test_support.hpp"
#include "support/user_kernel_sources.hpp"

namespace ks::test {
namespace {

const std::filesystem::path kLifeTemplate = std::filesystem::path(KS_SOURCE_DIR) / "assets/kernels/life_step.cu";

TEST(CliUserStep, ACompareThatCannotHoldIsExitTwoBeforeAnythingRuns) {
  KS_REQUIRE_CLI_NVRTC();
  TempDir dir;
  std::filesystem::copy_file(kLifeTemplate, dir / "life_step.cu");
  const auto sim = [](std::vector<std::string> more) {
    std::vector<std::string> args = {"sim", "--kernel-file", "life_step.cu", "--steps", "3", "-o", "out.png"};
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  expect_refused(sim({"--compare", "grayscott"}), 2,
                 "grayscott keeps two values per cell (u and v), and a step kernel carries one", dir.path());
  expect_refused(sim({"--compare", "heat"}), 2,
                 "heat keeps f32 cells, and your kernel keeps u8 cells. check it against life", dir.path());
  expect_refused(sim({"--compare", "box"}), 2, "box is a stencil kernel", dir.path());
  expect_refused(sim({"--compare", "life:nope"}), 2, "life has no variant `nope`", dir.path());
  expect_refused(sim({"--compare", "life", "--compare-param", "nope=1"}), 2, "unknown parameter 'nope'", dir.path());
  expect_refused(sim({"--compare", "life", "--compare-param", "rule=B9/S"}), 2, "rule", dir.path());
  write_file(dir / "heat.cu", kHeatPeriodic);
  expect_refused({"sim", "--kernel-file", "heat.cu", "--steps", "3", "--compare", "heat", "--compare-param", "dt=1"},
                 2, "dt", dir.path());  // beyond the stability limit 1 / (4 diffusivity): refused before it runs
  expect_refused(sim({"--compare-param", "rule=B36/S23"}), 2,
                 "--compare-param, --abs-tol and --rel-tol go with --compare", dir.path());
  expect_refused(sim({"--abs-tol", "0.5"}), 2, "go with --compare", dir.path());
  expect_refused(sim({"--compare", "life", "--rel-tol", "-1"}), 2, "--rel-tol", dir.path());
  expect_refused({"sim", "life", "--steps", "3", "--compare", "life"}, 2,
                 "--compare, --compare-param, --abs-tol and --rel-tol go with --kernel-file", dir.path());
  EXPECT_FALSE(std::filesystem::exists(dir / "out.png"));
}

TEST(CliUserStep, WithoutAGpuACompareThatHoldsSaysItNeedsOne) {
  KS_REQUIRE_CLI_NVRTC();
  if (gpu_available()) GTEST_SKIP() << "a GPU is here: the tests below run the kernel";
  TempDir dir;
  std::filesystem::copy_file(kLifeTemplate, dir / "life_step.cu");
  expect_refused({"sim", "--kernel-file", "life_step.cu", "--steps", "3", "--compare", "life", "--json", "s.json"}, 1,
                 "needs an NVIDIA GPU", dir.path());
  EXPECT_FALSE(std::filesystem::exists(dir / "s.json"));
}

struct Grid {
  int width, height;
};

TEST(CliUserStep, TheLifeTemplateMatchesTheBuiltInOnOddSizes) {
  KS_REQUIRE_CLI_NVRTC();
  KS_REQUIRE_GPU();
  TempDir dir;
  std::filesystem::copy_file(kLifeTemplate, dir / "life_step.cu");
  for (const Grid g : {Grid{1, 1}, Grid{1023, 7}, Grid{257, 129}}) {
    const std::string size = std::to_string(g.width) + "x" + std::to_string(g.height);
    SCOPED_TRACE(size);
    for (const char* reference : {"life", "life:naive"}) {
      const CliResult r = run_cli({"sim", "--kernel-file", "life_step.cu", "--steps", "37", "--size", size, "--seed",
                                   "5", "--compare", reference, "--json", "s.json", "-o", "s.png"},
                                  dir.path());
      ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
      const std::string label = std::string(reference) == "life" ? "life:cpu" : reference;
      EXPECT_NE(r.out.find("check against " + label + " after 37 steps: matches"), std::string::npos) << r.out;
      const auto j = nlohmann::json::parse(read_file(dir / "s.json"));
      EXPECT_EQ(j["comparison"]["matches"], true);
      EXPECT_EQ(j["comparison"]["reference"], label);
      EXPECT_EQ(j["comparison"]["compared"], g.width * g.height);
      EXPECT_EQ(j["comparison"]["differing"], 0);
      EXPECT_EQ(j["timings_ms"]["step"]["count"], 37);
    }
  }
}

TEST(CliUserStep, AWrongRuleDiffersExitsOneAndStillWritesItsFiles) {
  KS_REQUIRE_CLI_NVRTC();
  KS_REQUIRE_GPU();
  TempDir dir;
  write_file(dir / "highlife.cu", kLifeBornOn3Or6);
  const CliResult r = run_cli({"sim", "--kernel-file", "highlife.cu", "--steps", "30", "--size", "257x129", "--compare",
                               "life", "--json", "s.json", "-o", "s.png"},
                              dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err << r.out;
  EXPECT_NE(r.out.find("check against life:cpu after 30 steps: differs:"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(read_file(dir / "s.json"));
  EXPECT_EQ(j["comparison"]["matches"], false);
  EXPECT_GT(j["comparison"]["differing"].get<long long>(), 0);
  EXPECT_EQ(j["comparison"]["max_abs_diff"], 1);
  EXPECT_TRUE(std::filesystem::exists(dir / "s.png"));
  // The same kernel against the rule it implements agrees.
  const CliResult same = run_cli({"sim", "--kernel-file", "highlife.cu", "--steps", "30", "--size", "257x129",
                                  "--compare", "life", "--compare-param", "rule=B36/S23"},
                                 dir.path());
  EXPECT_EQ(same.exit_code, 0) << same.err << same.out;
  EXPECT_NE(same.out.find("matches"), std::string::npos) << same.out;
}

TEST(CliUserStep, AHeatKernelMatchesPeriodicHeat) {
  KS_REQUIRE_CLI_NVRTC();
  KS_REQUIRE_GPU();
  TempDir dir;
  write_file(dir / "heat.cu", kHeatPeriodic);
  const CliResult r = run_cli({"sim", "--kernel-file", "heat.cu", "--steps", "50", "--size", "101x37", "--compare",
                               "heat", "--compare-param", "boundary=periodic", "--json", "s.json"},
                              dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto j = nlohmann::json::parse(read_file(dir / "s.json"));
  EXPECT_EQ(j["comparison"]["matches"], true);
  EXPECT_EQ(j["comparison"]["tolerance"]["rel"], 1e-5);
  // With r = 0.25 the kernel steps faster than the built-in's 0.2: beyond any rounding.
  const CliResult other = run_cli({"sim", "--kernel-file", "heat.cu", "--steps", "50", "--size", "101x37",
                                   "--compare", "heat", "--compare-param", "boundary=periodic", "-p", "r=0.25"},
                                  dir.path());
  EXPECT_EQ(other.exit_code, 1) << other.err << other.out;
}

}  // namespace
}  // namespace ks::test
