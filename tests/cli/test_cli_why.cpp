// The "Why" findings through the CLI on the CPU backend: `run`, `lab` and `sim` print a Why paragraph that
// says the counters were not read, and their JSON carries "why" (findings of a CPU run only: timings and the
// roofline) and "first_launch_ms" (null without a warm-up).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/cli_runner.hpp"
#include "io/image_io.hpp"
#include "support/test_support.hpp"

namespace ks::test {
namespace {

const std::set<std::string> kCpuIds = {"first-launch", "memory-far-below-copy", "compute-far-below-peak"};

nlohmann::json read_json(const std::filesystem::path& file) {
  std::ifstream in(file);
  return nlohmann::json::parse(in);
}

void expect_cpu_why(const nlohmann::json& j) {
  ASSERT_TRUE(j.at("why").is_array()) << j.dump();
  for (const auto& f : j.at("why")) {
    EXPECT_EQ(f.size(), 3u) << f.dump();
    EXPECT_TRUE(kCpuIds.count(f.at("id").get<std::string>())) << f.dump();
  }
}

TEST(CliWhy, RunPrintsAndWritesItsFindings) {
  TempDir dir;
  save_image(random_image(1023, 7, 1, ElemType::U8, 5), dir / "thin.png");
  const CliResult r = run_cli({"--threads", "2", "run", "box", "-i", "thin.png", "-o", "out.png", "--backend",
                               "cpu", "--json", "run.json"},
                              dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Why:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no hardware counters"), std::string::npos) << r.out;
  const nlohmann::json j = read_json(dir / "run.json");
  expect_cpu_why(j);
  EXPECT_TRUE(j.at("first_launch_ms").is_number()) << "one warm-up by default";
  EXPECT_TRUE(j.contains("timings_ms") && j.contains("roofline")) << "the keys before stay";

  const CliResult cold = run_cli({"run", "box", "-i", "thin.png", "-o", "out.png", "--backend", "cpu",
                                  "--warmup", "0", "--json", "cold.json"},
                                 dir.path());
  ASSERT_EQ(cold.exit_code, 0) << cold.err;
  EXPECT_TRUE(read_json(dir / "cold.json").at("first_launch_ms").is_null());
}

TEST(CliWhy, LabAndSimWriteTheirFindings) {
  TempDir dir;
  const CliResult lab = run_cli(
      {"--threads", "2", "lab", "vecadd", "--size", "100003", "--backend", "cpu", "--json", "lab.json"},
      dir.path());
  ASSERT_EQ(lab.exit_code, 0) << lab.err;
  EXPECT_NE(lab.out.find("Why:"), std::string::npos) << lab.out;
  const nlohmann::json lj = read_json(dir / "lab.json");
  expect_cpu_why(lj);
  EXPECT_TRUE(lj.at("first_launch_ms").is_number());

  const CliResult sim = run_cli({"--threads", "2", "sim", "life", "--steps", "4", "--size", "70x9",
                                 "--backend", "cpu", "--json", "sim.json"},
                                dir.path());
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  EXPECT_NE(sim.out.find("Why:"), std::string::npos) << sim.out;
  const nlohmann::json sj = read_json(dir / "sim.json");
  expect_cpu_why(sj);
  EXPECT_TRUE(sj.at("first_launch_ms").is_number()) << "the first of the 4 steps";
}

}  // namespace
}  // namespace ks::test
