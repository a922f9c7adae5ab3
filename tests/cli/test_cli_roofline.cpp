// The roofline through the CLI: `bench --roofline` writes the chart (and refuses a path it cannot write,
// leaving nothing), and the JSON of `run`, `lab`, `sim` and `bench` carries intensity, rates and peaks that
// agree with the cost model and the times in the same JSON; `info --json` carries the CPU's peaks.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "io/image_io.hpp"
#include "support/test_support.hpp"

namespace ks::test {
namespace {

namespace fs = std::filesystem;
constexpr const char* kFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

// The roof a report's roofline object should give, recomputed here from its peaks and its operations by kind:
// the compute ceiling is the operations over the sum of each kind's operations / its ceiling (lone f32
// operations at half the FMA peak, u8 at the fastest integer width, i16 at i16 or i32), the memory ceiling
// the copy of the largest cached footprint not above the bytes (the smallest below them all), the main copy
// from its footprint on; each taken independently of the code under test.
double expected_roof(const nlohmann::json& roof, double bytes, double operations) {
  const auto& peaks = roof.at("peaks");
  const double fma = peaks.at("fma_gflops").get<double>(), u8 = peaks.at("u8_gops").get<double>(),
               i16 = peaks.at("i16_gops").get<double>(), i32 = peaks.at("i32_gops").get<double>();
  const std::map<std::string, double> ceiling = {{"f32_fma", fma},
                                                 {"f32_one", fma / 2},
                                                 {"u8", std::max({u8, i16, i32})},
                                                 {"i16", std::max(i16, i32)},
                                                 {"i32", i32}};
  double seconds = 0, counted = 0;
  for (const auto& [kind, ops] : roof.at("operations_by_kind").items()) {
    seconds += ops.get<double>() / ceiling.at(kind);
    counted += ops.get<double>();
  }
  EXPECT_NEAR(counted, operations, 1e-9 * operations + 1) << "the kinds add up to the operations";
  double memory = peaks.at("memory_gbps").get<double>();
  const auto& cached = peaks.at("cached_copies");
  if (!cached.empty() && bytes < 256.0 * (1 << 20)) {  // the CPU's main copy moves 256 MiB
    double chosen = cached.front().at("gbps").get<double>();
    for (const auto& c : cached)
      if (c.at("footprint_bytes").get<double>() <= bytes) chosen = c.at("gbps").get<double>();
    memory = std::max(memory, chosen);
  }
  EXPECT_NEAR(roof.at("memory_ceiling").at("gbps").get<double>(), memory, 1e-9 * memory);
  return std::min(operations / seconds, operations / bytes * memory);
}

// The roofline object of a report against its cost ({bytes, operations}) and median kernel time in ms.
void expect_roofline_consistent(const nlohmann::json& roof, double bytes, double operations,
                                double median_ms) {
  SCOPED_TRACE(roof.dump());
  ASSERT_GT(bytes, 0);
  ASSERT_GT(median_ms, 0);
  EXPECT_NEAR(roof.at("arithmetic_intensity").get<double>(), operations / bytes, 1e-9 * operations / bytes);
  const double gflops = operations / (median_ms * 1e6), gbps = bytes / (median_ms * 1e6);
  EXPECT_NEAR(roof.at("gflops").get<double>(), gflops, 1e-9 * gflops);
  EXPECT_NEAR(roof.at("gbps").get<double>(), gbps, 1e-9 * gbps);
  const auto& peaks = roof.at("peaks");
  const double fma = peaks.at("fma_gflops").get<double>(), memory = peaks.at("memory_gbps").get<double>();
  EXPECT_GT(fma, 0);
  EXPECT_GT(memory, 0);
  EXPECT_EQ(peaks.at("where").get<std::string>().rfind("CPU (", 0), 0u);
  EXPECT_FALSE(roof.at("ceiling").at("name").get<std::string>().empty());
  const double roof_there = expected_roof(roof, bytes, operations);
  EXPECT_NEAR(roof.at("attainable_gflops").get<double>(), roof_there, 1e-9 * roof_there);
  EXPECT_NEAR(roof.at("percent_of_roof").get<double>(), 100 * gflops / roof_there,
              1e-7 * gflops / roof_there);
}

TEST(CliRoofline, RunJsonCarriesTheRooflineOfItsCostAndTime) {
  TempDir dir;
  save_image(random_image(64, 48, 1, ElemType::U8, 3), dir / "in.png");
  CliResult r = run_cli({"run", "gaussian", "-i", "in.png", "-o", "out.png", "--backend", "cpu", "--repeat",
                         "3", "--json", "r.json"},
                        dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("roofline: "), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(read_file(dir / "r.json"));
  expect_roofline_consistent(j.at("roofline"), j.at("cost").at("bytes").get<double>(),
                             j.at("cost").at("operations").get<double>(),
                             j.at("timings_ms").at("kernel").at("median").get<double>());
  // A u8 Gaussian (sigma 2) sums its 11-bit fixed-point weights in 32-bit lanes: its ceiling is the CPU's i32
  // one, named in the JSON and the text.
  EXPECT_EQ(j.at("roofline").at("ceiling").at("name"), "i32 integer");
  EXPECT_EQ(j.at("roofline").at("operations_by_kind").size(), 1u);
  EXPECT_NE(r.out.find("i32 integer ceiling"), std::string::npos) << r.out;
}

TEST(CliRoofline, LabJsonFillsThePeakAndTheRoofline) {
  TempDir dir;
  CliResult r =
      run_cli({"lab", "saxpy", "--size", "2^16", "--backend", "cpu", "--repeat", "3", "--json", "r.json"},
              dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(read_file(dir / "r.json"));
  const double bytes = j.at("cost").at("bytes").get<double>(),
               ops = j.at("cost").at("operations").get<double>();
  const double ms = j.at("timings_ms").at("kernel").at("median").get<double>();
  expect_roofline_consistent(j.at("roofline"), bytes, ops, ms);
  const double peak = j.at("peak_gflops").get<double>();
  EXPECT_EQ(peak, j.at("roofline").at("peaks").at("fma_gflops").get<double>());
  EXPECT_NEAR(j.at("percent_of_peak_flops").get<double>(), 100 * (ops / (ms * 1e6)) / peak, 1e-6);
}

TEST(CliRoofline, SimJsonCarriesTheRooflinePerStep) {
  TempDir dir;
  CliResult r =
      run_cli({"sim", "heat", "--size", "64x48", "--steps", "20", "--backend", "cpu", "--json", "s.json"},
              dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(read_file(dir / "s.json"));
  // heat: 6 operations per cell (sim_kernels.cpp), one read and one write of the f32 state per step.
  const double cells = 64.0 * 48.0;
  expect_roofline_consistent(j.at("roofline"), j.at("bytes_per_step").get<double>(), 6 * cells,
                             j.at("timings_ms").at("step").at("median").get<double>());
}

TEST(CliRoofline, TopoJsonCarriesTheSweepsRooflineUnderTiming) {
  TempDir dir;
  CliResult r = run_cli({"topo", "--generate", "alltoall:n=7", "--topology", "ring", "--topology", "star",
                         "--backend", "cpu", "--json", "t.json", "--threads", "2"},
                        dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(read_file(dir / "t.json"));
  // topo/sweep/sweep_cost.hpp: 2 n^2 operations per evaluation, the inputs (one traffic slice, two path-cost
  // matrices of n^2 values of 8 bytes) read once; the time is evaluations / (evaluations per second).
  const double n2 = 49, evaluations = j.at("evaluations").get<double>();
  EXPECT_EQ(evaluations, 5040.0 * 2);  // 7! placements x 2 configurations
  const double ms = 1000 * evaluations / j.at("timing").at("evaluations_per_second").get<double>();
  expect_roofline_consistent(j.at("timing").at("roofline"), 8 * n2 * 3, 2 * n2 * evaluations, ms);
}

TEST(CliRoofline, BenchWritesTheChartAndTheFiguresInItsJson) {
  if (!fs::exists(kFont)) GTEST_SKIP() << kFont << " is missing (fonts-dejavu-core)";
  TempDir dir;
  CliResult r =
      run_cli({"bench", "--kernels", "box,sobel", "--sizes", "32", "--types", "u8", "--backends", "cpu",
               "--repeat", "2", "--warmup", "0", "--json", "b.json", "--roofline", "roof.png"},
              dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote roof.png"), std::string::npos) << r.out;
  const Image chart = load_image(dir / "roof.png");
  EXPECT_EQ(chart.width(), 1200);
  EXPECT_EQ(chart.height(), 800);
  const auto j = nlohmann::json::parse(read_file(dir / "b.json"));
  const auto& cpu = j.at("peaks").at("cpu");
  EXPECT_GT(cpu.at("fma_gflops").get<double>(), 0);
  EXPECT_GT(cpu.at("memory_gbps").get<double>(), 0);
  ASSERT_EQ(j.at("results").size(), 2u);
  for (const auto& row : j.at("results")) {
    const auto& report = row.at("report");
    EXPECT_EQ(row.at("arithmetic_intensity"), report.at("roofline").at("arithmetic_intensity"));
    EXPECT_EQ(row.at("gflops"), report.at("roofline").at("gflops"));
    EXPECT_EQ(report.at("roofline").at("peaks"), cpu);
    expect_roofline_consistent(report.at("roofline"), report.at("cost").at("bytes").get<double>(),
                               report.at("cost").at("operations").get<double>(),
                               report.at("timings_ms").at("kernel").at("median").get<double>());
  }
}

TEST(CliRoofline, BenchRefusesAChartItCannotWriteBeforeMeasuring) {
  TempDir dir;
  CliResult r = run_cli({"bench", "--kernels", "box", "--sizes", "16", "--types", "u8", "--backends", "cpu",
                         "--repeat", "1", "--roofline", "no-such-folder/roof.png"},
                        dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("no-such-folder"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("[1/1]"), std::string::npos) << "the sweep ran first:\n" << r.err;
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(CliRoofline, BenchRefusesAChartThatIsNotAPng) {
  TempDir dir;
  expect_refused({"bench", "--kernels", "box", "--backends", "cpu", "--roofline", "roof.jpg"}, 2, ".png",
                 dir.path());
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(CliRoofline, InfoJsonCarriesTheCpuPeaks) {
  TempDir dir;
  CliResult r = run_cli({"--threads", "2", "info", "--json"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_GT(j.at("cpu").at("fma_peak_gflops").get<double>(), 0);
  EXPECT_GT(j.at("cpu").at("copy_bandwidth_gbps").get<double>(), 0);
  CliResult text = run_cli({"--threads", "2", "info"}, dir.path());
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("CPU peaks: "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("GFLOP/s f32 FMA"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("CPU integer peaks"), std::string::npos) << text.out;
  for (const char* width : {"u8", "i16", "i32"})
    EXPECT_GT(j.at("cpu").at("int_peak_gops").at(width).get<double>(), 0);
}

}  // namespace
}  // namespace ks::test
