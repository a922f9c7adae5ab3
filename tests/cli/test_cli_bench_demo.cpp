// `bench` and `demo`: the files they write parse and hold the expected rows; Ctrl-C stops a sweep with a
// partial table and exit code 130.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "cli/cli_runner.hpp"
#include "io/image_io.hpp"
#include "stencil/cpu/simd/simd_target.hpp"
#include "support/test_support.hpp"

namespace ks::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  // The fields these tests read never need quoting; a quoted field only has to stay one field.
  std::vector<std::vector<std::string>> rows;
  std::stringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (char c : line) {
      if (c == '"')
        quoted = !quoted;
      else if (c == ',' && !quoted)
        fields.emplace_back();
      else
        fields.back() += c;
    }
    rows.push_back(std::move(fields));
  }
  return rows;
}

TEST(CliBench, TinySweepWritesCsvAndJson) {
  TempDir dir;
  CliResult r = run_cli(
      {"bench", "--kernels", "box,median", "--sizes", "16,24", "--types", "u8,f32", "--backends", "cpu",
       "--repeat", "2", "--warmup", "0", "--csv", "b.csv", "--json", "b.json", "--param", "radius=2"},
      dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Not a terminal: one line per finished case, no control characters.
  EXPECT_NE(r.err.find("[1/8] "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[8/8] "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos);
  for (const char* col :
       {"kernel", "type", "size", "variant", "block", "median ms", "GB/s", "% copy BW", "vs naive", "vs cpu"})
    EXPECT_NE(r.out.find(col), std::string::npos) << col;

  const auto csv = parse_csv(read_file(dir / "b.csv"));
  ASSERT_EQ(csv.size(), 1u + 8u);  // header + 2 kernels x 2 sizes x 2 types, cpu only
  const auto& header = csv[0];
  auto col = [&](const std::string& name) {
    return std::size_t(std::find(header.begin(), header.end(), name) - header.begin());
  };
  ASSERT_LT(col("median_ms"), header.size());
  ASSERT_LT(col("speedup_vs_cpu"), header.size());
  int median_rows = 0;
  for (std::size_t i = 1; i < csv.size(); ++i) {
    ASSERT_EQ(csv[i].size(), header.size()) << i;
    EXPECT_EQ(csv[i][col("status")], "ok");
    EXPECT_EQ(csv[i][col("backend")], "cpu");
    EXPECT_GT(std::stod(csv[i][col("median_ms")]), 0);
    EXPECT_DOUBLE_EQ(std::stod(csv[i][col("speedup_vs_cpu")]), 1.0);
    EXPECT_NE(csv[i][col("params")].find("radius=2"), std::string::npos);
    median_rows += csv[i][col("kernel")] == "median";
  }
  EXPECT_EQ(median_rows, 4);

  const auto j = nlohmann::json::parse(read_file(dir / "b.json"));
  EXPECT_EQ(j.at("schema"), "kernelscope.bench/1");
  EXPECT_TRUE(j.at("complete").get<bool>());
  ASSERT_EQ(j.at("results").size(), 8u);
  const auto& first = j["results"][0];
  EXPECT_EQ(first.at("kernel"), "box");
  EXPECT_EQ(first.at("size"), 16);
  EXPECT_EQ(first.at("type"), "u8");
  EXPECT_EQ(first.at("status"), "ok");
  EXPECT_EQ(first.at("report").at("image").at("width"), 16);
  EXPECT_EQ(first.at("report").at("params").at("radius"), "2");
  EXPECT_EQ(first.at("report").at("timings_ms").at("kernel").at("count"), 2);
  // The instruction set of the CPU backend's SIMD loops: in the table's heading, the devices and every
  // report.
  const std::string simd = cpu::simd::simd_description();
  EXPECT_NE(r.out.find("CPU SIMD: " + simd), std::string::npos) << r.out;
  EXPECT_EQ(j.at("devices").at("cpu_simd"), simd);
  EXPECT_EQ(first.at("report").at("cpu_simd"), simd);
}

TEST(CliBench, BadRequestsExit2) {
  TempDir dir;
  EXPECT_EQ(run_cli({"bench", "--kernels", "nope", "--sizes", "8"}, dir.path()).exit_code, 2);
  EXPECT_EQ(run_cli({"bench", "--kernels", "box", "--sizes", "8", "--param", "nope=1"}, dir.path()).exit_code,
            2);
  EXPECT_EQ(
      run_cli({"bench", "--kernels", "box", "--sizes", "8", "--param", "radius=0"}, dir.path()).exit_code, 2);
  EXPECT_EQ(run_cli({"bench", "--kernels", "box", "--sizes", "0"}, dir.path()).exit_code, 2);
  EXPECT_EQ(run_cli({"bench", "--kernels", "box", "--sizes", "8", "--blocks", "0x8"}, dir.path()).exit_code,
            2);
  EXPECT_EQ(run_cli({"bench", "--types", "u16"}, dir.path()).exit_code, 2);
  EXPECT_FALSE(fs::exists(dir / "b.csv"));
}

// --variants keeps the sweep to the named variants (the recursive Gaussian without the window variants, which
// at large sigma take minutes); a name no selected kernel has is a usage error that lists theirs.
TEST(CliBench, VariantsSelectWhatRuns) {
  TempDir dir;
  CliResult r = run_cli({"bench", "--kernels", "gaussian", "--variants", "cpu_recursive", "--sizes", "16,33",
                         "--types", "f32", "--backends", "cpu", "--repeat", "1", "--warmup", "0", "--param",
                         "sigma=40", "--json", "b.json"},
                        dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(read_file(dir / "b.json"));
  ASSERT_EQ(j.at("results").size(), 2u);
  for (const auto& row : j["results"]) {
    EXPECT_EQ(row.at("variant"), "cpu_recursive");
    EXPECT_EQ(row.at("status"), "ok");
  }
  CliResult bad = run_cli({"bench", "--kernels", "box", "--variants", "recursive", "--sizes", "8"}, dir.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("no selected kernel has a variant 'recursive'"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("separable"), std::string::npos) << bad.err;
}

TEST(CliBench, CudaWithoutDeviceExits1) {
  if (gpu_available()) GTEST_SKIP() << "a CUDA device is present";
  TempDir dir;
  CliResult r = run_cli({"bench", "--kernels", "box", "--sizes", "8", "--backends", "cuda"}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("--backends cpu"), std::string::npos) << r.err;
}

TEST(CliBench, CtrlCPrintsThePartialTableAndExits130) {
  TempDir dir;
  // Many slow-ish cases: 7x7 medians with many repeats; the sweep would take far longer than the test waits.
  std::vector<std::string> args = {"bench",   "--kernels", "median",      "--param", "radius=3",
                                   "--types", "f32",       "--backends",  "cpu",     "--repeat",
                                   "30",      "--csv",     "partial.csv", "--sizes"};
  std::string sizes;
  for (int size = 600; size < 620; ++size) {
    if (!sizes.empty()) sizes += ',';
    sizes += std::to_string(size);
  }
  args.push_back(sizes);
  CliProcess p(args, dir.path());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (p.err().find("[1/20]") == std::string::npos && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_NE(p.err().find("[1/20]"), std::string::npos) << "the first case never finished";
  p.signal(SIGINT);
  CliResult r = p.wait();
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted after"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("median ms"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nmedian "), std::string::npos) << r.out;  // at least one measured row
  const std::string csv = read_file(dir / "partial.csv");
  EXPECT_NE(csv.find("median,f32,600,"), std::string::npos) << csv;
  EXPECT_EQ(csv.find("median,f32,619,"), std::string::npos) << csv;
}

TEST(CliDemo, WritesEveryResultIntoTheOutputFolder) {
  TempDir dir;
  CliResult r = run_cli({"demo", "--out", "demo-out", "--repeat", "1"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(gpu_available() ? "backend: CUDA" : "backend: CPU"), std::string::npos) << r.out;
  for (const char* k : {"box", "gaussian", "sobel", "sharpen", "median"}) {
    const fs::path png = dir / "demo-out" / (std::string(k) + ".png");
    ASSERT_TRUE(fs::exists(png)) << png;
    const Image img = load_image(png);
    EXPECT_EQ(img.width(), 1024);
    EXPECT_EQ(img.height(), 768);
    EXPECT_NE(r.out.find(k), std::string::npos);
  }
  const auto j = nlohmann::json::parse(read_file(dir / "demo-out" / "report.json"));
  EXPECT_EQ(j.at("runs").size(), 5u);
  EXPECT_NE(r.out.find("demo-out"), std::string::npos);
}

TEST(CliDemo, DefaultFolderIsOutDemoUnderTheCurrentDirectory) {
  TempDir dir;
  CliResult r = run_cli({"--threads", "2", "demo", "--repeat", "1"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir / "out" / "demo" / "box.png"));
}

}  // namespace
}  // namespace ks::test
