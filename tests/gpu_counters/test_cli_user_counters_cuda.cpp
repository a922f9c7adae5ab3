// `run`, `lab` and `sim --kernel-file ... --counters`: the worker reads the counters of the user's kernel and the
// report's JSON carries them as a built-in's run does (a `counters` object), the Why paragraph reads them. GPU
// machine; skipped without a device (without one the CLI says it needs a GPU: tests/cli/test_cli_user_kernel.cpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "support/test_support.hpp"

namespace ks::test {
namespace {

const std::filesystem::path kTemplates = std::filesystem::path(KS_SOURCE_DIR) / "assets/kernels";

void expect_counters_object(const std::filesystem::path& json, const std::string& kernel_name) {
  const auto j = nlohmann::json::parse(read_file(json));
  ASSERT_TRUE(j.contains("counters"));
  ASSERT_TRUE(j["counters"].is_object()) << j["counters"].dump();
  EXPECT_EQ(j["counters"]["kernel_name"], kernel_name);
  EXPECT_GT(j["counters"]["dram"]["bytes"].get<double>() + j["counters"]["global_loads"]["requests"].get<double>(),
            0);
  EXPECT_GT(j["counters"]["achieved_occupancy_pct"].get<double>(), 0);
}

TEST(CliUserCountersCuda, RunLabAndSimWithAKernelFileWriteACountersObject) {
  KS_REQUIRE_CLI_NVRTC();
  KS_REQUIRE_GPU();
  TempDir dir;
  for (const char* name : {"smooth3x3.cu", "vecadd.cu", "life_step.cu"})
    std::filesystem::copy_file(kTemplates / name, dir / name);

  const CliResult run = run_cli({"run", "--kernel-file", "smooth3x3.cu", "-i", "sample", "--type", "f32", "-o",
                                 "out.png", "--counters", "--json", "run.json"},
                                dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err.find("no counters"), std::string::npos) << run.err;
  expect_counters_object(dir / "run.json", "smooth3x3");
  EXPECT_NE(run.out.find("counters of one more launch"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("no hardware counters"), std::string::npos) << run.out;

  const CliResult lab = run_cli({"lab", "--kernel-file", "vecadd.cu", "--size", "1000003", "--counters", "--json",
                                 "lab.json"},
                                dir.path());
  ASSERT_EQ(lab.exit_code, 0) << lab.err;
  expect_counters_object(dir / "lab.json", "vecadd");

  const CliResult sim = run_cli({"sim", "--kernel-file", "life_step.cu", "--steps", "5", "--size", "1023x517",
                                 "--counters", "--json", "sim.json"},
                                dir.path());
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  expect_counters_object(dir / "sim.json", "life_step");
  EXPECT_EQ(nlohmann::json::parse(read_file(dir / "sim.json"))["timings_ms"]["step"]["count"], 5)
      << "the counted launch is not a step";
}

}  // namespace
}  // namespace ks::test
