// `topo --placements search`: the best cost and the gap to --reference or to the .sln beside a QAPLIB .dat,
// the JSON's convergence curve, the SVG chart and the CSV, timestamps x configurations, reproducible seeds,
// Ctrl-C, and bad input (exit 2 for the request, 1 for the files, no output file left behind). The CPU
// backend throughout: CI has no GPU, and the GPU tests compare the backends.
#include <gtest/gtest.h>

#include <csignal>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/cli_runner.hpp"
#include "support/shared_data.hpp"
#include "support/test_support.hpp"

namespace ks::test {
namespace {

namespace fs = std::filesystem;

class CliSearch : public ::testing::Test {
 protected:
  CliResult search(std::vector<std::string> args) {
    args.insert(args.begin(), {"topo", "--placements", "search"});
    args.insert(args.end(), {"--threads", "2", "--backend", "cpu"});
    return run_cli(args, dir_.path());
  }
  nlohmann::json json(const std::string& name) { return nlohmann::json::parse(read_file(dir_ / name)); }
  TempDir dir_;
};

TEST_F(CliSearch, Nug12ReachesTheOptimumAndReportsTheGapAndTheCurve) {
  KS_REQUIRE_DATA(data("qaplib/nug12.dat"));
  const CliResult r = search({"--qaplib", data("qaplib/nug12.dat"), "--iterations", "20000", "--reference",
                              "578", "--json", "r.json", "--chart", "r.svg", "--csv", "r.csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("QAPLIB nug12: objective 578"), std::string::npos) << r.out;  // the published optimum
  EXPECT_NE(r.out.find("gap: 0.00% above --reference 578"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("swap evaluations/s"), std::string::npos) << r.out;
  const auto j = json("r.json");
  EXPECT_EQ(j["schema"], "kernelscope.topo.search/1");
  EXPECT_EQ(j["best"]["cost"], 578);
  EXPECT_EQ(j["best"]["placement"].size(), 12u);
  EXPECT_EQ(j["reference"]["gap_percent"].get<double>(), 0.0);
  EXPECT_EQ(j["stopped_by"], "iterations");
  EXPECT_EQ(j["params"]["algorithm"], "tabu");
  const auto& c = j["configurations"][0];
  EXPECT_EQ(c["iterations"].get<std::uint64_t>(), 20000u * j["params"]["chains"].get<std::uint64_t>());
  EXPECT_EQ(c["evaluations"].get<std::uint64_t>(),
            c["iterations"].get<std::uint64_t>() * 66);  // 12 x 11 / 2 pairs
  // The curve: best costs never rise, times never go back, and it ends at the best.
  const auto& curve = c["curve"];
  ASSERT_GE(curve.size(), 2u);
  for (std::size_t k = 1; k < curve.size(); ++k) {
    EXPECT_LE(curve[k]["cost"].get<double>(), curve[k - 1]["cost"].get<double>());
    EXPECT_GE(curve[k]["time_s"].get<double>(), curve[k - 1]["time_s"].get<double>());
  }
  EXPECT_EQ(curve.back()["cost"], 578);
  const std::string svg = read_file(dir_ / "r.svg");
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos);  // the reference line
  const std::string csv = read_file(dir_ / "r.csv");
  EXPECT_NE(csv.find(",nug12 A,1,578,578,"), std::string::npos) << csv;
}

TEST_F(CliSearch, TheSlnBesideTheDatIsTheReference) {
  KS_REQUIRE_DATA(data("qaplib-large/nug30.dat"));
  const CliResult r =
      search({"--qaplib", data("qaplib-large/nug30.dat"), "--iterations", "50", "--json", "r.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json("r.json");
  EXPECT_EQ(j["reference"]["cost"], 6124);
  EXPECT_EQ(j["reference"]["source"], "nug30.sln (best known)");
  const double gap = j["reference"]["gap_percent"].get<double>();
  EXPECT_NEAR(gap, (j["best"]["cost"].get<double>() - 6124) / 6124 * 100, 1e-9);
  EXPECT_NE(r.out.find("above the best known (6124, nug30.sln)"), std::string::npos) << r.out;
}

TEST_F(CliSearch, TimestampsAndConfigurations) {
  const CliResult r = search({"--generate", "gravity:n=9,t=3,seed=4", "--topology", "ring", "--topology",
                              "torus:3x3", "--iterations", "3000", "--json", "g.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json("g.json");
  ASSERT_EQ(j["configurations"].size(), 2u);
  double lowest = 1e300;
  for (const auto& c : j["configurations"]) {
    ASSERT_EQ(c["costs"].size(), 4u);  // 3 timestamps and the sum
    EXPECT_EQ(c["costs"][3]["timestamp"], "sum");
    double sum = 0;
    for (int t = 0; t < 3; ++t) sum += c["costs"][t]["cost"].get<double>();
    EXPECT_NEAR(c["costs"][3]["cost"].get<double>(), sum, 1e-6 * sum);  // the cost is linear in the traffic
    EXPECT_EQ(c["cost"], c["costs"][3]["cost"]);
    lowest = std::min(lowest, c["cost"].get<double>());
  }
  EXPECT_EQ(j["best"]["cost"].get<double>(), lowest);
  EXPECT_EQ(j["best"]["timestamp"], "sum");
  EXPECT_NE(r.out.find("its cost per timestamp"), std::string::npos) << r.out;
}

TEST_F(CliSearch, SeededRunsRepeat) {
  const std::vector<std::string> args = {
      "--generate", "uniform:n=20,seed=5", "--topology", "torus:5x4", "--algorithm",
      "anneal",     "--iterations",        "40000",      "--seed",    "9"};
  auto with = [&](const std::string& out) {
    std::vector<std::string> a = args;
    a.insert(a.end(), {"--json", out});
    return a;
  };
  ASSERT_EQ(search(with("a.json")).exit_code, 0);
  ASSERT_EQ(search(with("b.json")).exit_code, 0);
  const auto a = json("a.json"), b = json("b.json");
  EXPECT_EQ(a["best"]["placement"], b["best"]["placement"]);
  EXPECT_EQ(a["best"]["cost"], b["best"]["cost"]);
  EXPECT_EQ(a["params"]["algorithm"], "anneal");
  ASSERT_EQ(a["configurations"][0]["curve"].size(), b["configurations"][0]["curve"].size());
  for (std::size_t k = 0; k < a["configurations"][0]["curve"].size(); ++k)
    EXPECT_EQ(a["configurations"][0]["curve"][k]["iterations"],
              b["configurations"][0]["curve"][k]["iterations"]);
}

TEST_F(CliSearch, BadRequestsExitTwoAndBadFilesExitOne) {
  KS_REQUIRE_DATA(data("qaplib/tai10a.dat"));
  const std::vector<std::string> gen = {"--generate", "uniform:n=6,seed=1", "--topology", "ring"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = gen;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  const CliResult zero_time = search(with({"--time", "0", "--json", "x.json"}));
  EXPECT_EQ(zero_time.exit_code, 2);
  EXPECT_NE(zero_time.err.find("--time 0 searches nothing"), std::string::npos) << zero_time.err;
  EXPECT_FALSE(fs::exists(dir_ / "x.json"));
  EXPECT_EQ(search(with({"--time", "soon"})).exit_code, 2);
  EXPECT_EQ(search(with({"--iterations", "0"})).exit_code, 2);
  EXPECT_EQ(search(with({"--iterations", "1.5"})).exit_code, 2);
  const CliResult reference = search(with({"--iterations", "10", "--reference", "best"}));
  EXPECT_EQ(reference.exit_code, 2);
  EXPECT_NE(reference.err.find("--reference 'best' is not a number"), std::string::npos) << reference.err;
  EXPECT_EQ(search(with({"--iterations", "10", "--target", "low"})).exit_code, 2);
  EXPECT_EQ(search(with({"--iterations", "10", "--param", "tenure=0"})).exit_code, 2);  // outside its range
  EXPECT_EQ(search(with({"--iterations", "10", "--param", "colour=blue"})).exit_code, 2);
  EXPECT_EQ(search(with({"--iterations", "10", "--top", "3"})).exit_code, 2);  // a sweep's option
  EXPECT_EQ(
      run_cli({"topo", "--generate", "uniform:n=6,seed=1", "--topology", "ring", "--time", "5"}, dir_.path())
          .exit_code,
      2);  // a search's option on a sweep

  // Zero traffic: every placement costs 0.
  std::string zeros = "timestamp,src,dst,value\n";
  for (const char* a : {"a", "b", "c"})
    for (const char* b : {"a", "b", "c"}) zeros += std::string("t0,") + a + "," + b + ",0\n";
  write_file(dir_ / "zero.csv", zeros);
  const CliResult zero = search({"--traffic", "zero.csv", "--topology", "ring", "--iterations", "10"});
  EXPECT_EQ(zero.exit_code, 2) << zero.err;
  EXPECT_NE(zero.err.find("zero everywhere"), std::string::npos) << zero.err;

  // One node: nothing to place.
  write_file(dir_ / "one.csv", "timestamp,src,dst,value\nt0,a,a,5\n");
  const CliResult one = search({"--traffic", "one.csv", "--topology", "ring", "--iterations", "10"});
  EXPECT_NE(one.exit_code, 0);
  EXPECT_NE(one.err.find("placements need at least 2"), std::string::npos) << one.err;

  // A .sln of another size beside the .dat.
  fs::copy_file(data("qaplib/tai10a.dat"), dir_ / "tai10a.dat");
  write_file(dir_ / "tai10a.sln", "12 135028\n1 2 3 4 5 6 7 8 9 10 11 12\n");
  const CliResult sln = search({"--qaplib", "tai10a.dat", "--iterations", "10", "--json", "s.json"});
  EXPECT_EQ(sln.exit_code, 1) << sln.err;
  EXPECT_NE(sln.err.find("solution for n = 12, but the instance has n = 10"), std::string::npos) << sln.err;
  EXPECT_FALSE(fs::exists(dir_ / "s.json"));
}

TEST_F(CliSearch, CtrlCKeepsTheBestSoFarAndExits130) {
  CliProcess p({"topo", "--generate", "uniform:n=40,seed=1", "--topology", "torus:8x5", "--placements",
                "search", "--time", "60", "--backend", "cpu", "--threads", "2", "--json", "part.json"},
               dir_.path());
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  p.signal(SIGINT);
  const CliResult r = p.wait();
  ASSERT_EQ(r.exit_code, 130) << r.err;
  const auto j = json("part.json");
  EXPECT_FALSE(j["complete"].get<bool>());
  EXPECT_EQ(j["stopped_by"], "cancel");
  EXPECT_EQ(j["best"]["placement"].size(), 40u);
  EXPECT_NE(r.out.find("stopped by Ctrl-C"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace ks::test
