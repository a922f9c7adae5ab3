// `topo`: exit codes, the JSON's best placement (QAPLIB optimum, Abilene by hand), CSV rows, split ranges,
// Ctrl-C, and bad input (exit 2 for the request, 1 for the files, no output file left behind).
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

class CliTopo : public ::testing::Test {
 protected:
  CliResult topo(std::vector<std::string> args) {
    args.insert(args.begin(), "topo");
    args.insert(args.end(), {"--threads", "2"});
    return run_cli(args, dir_.path());
  }
  nlohmann::json json(const std::string& name) { return nlohmann::json::parse(read_file(dir_ / name)); }
  TempDir dir_;
};

TEST_F(CliTopo, QaplibBestIsThePublishedOptimum) {
  KS_REQUIRE_DATA(data("qaplib/tai10a.dat"));
  const CliResult r = topo({"--qaplib", data("qaplib/tai10a.dat"), "--top", "3", "--json", "r.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("QAPLIB tai10a: objective 135028"), std::string::npos) << r.out;
  const auto j = json("r.json");
  EXPECT_EQ(j["best"]["cost"], 135028);  // published optimum of tai10a
  EXPECT_EQ(j["qaplib"]["objective"], 135028);
  EXPECT_EQ(j["best"]["placement"].size(), 10u);
  EXPECT_EQ(j["placements"]["count"], 3628800);
  EXPECT_EQ(j["top"]["placements"].size(), 3u);
  EXPECT_EQ(j["top"]["placements"][0]["cost"], 135028);
  EXPECT_TRUE(j["complete"].get<bool>());
  EXPECT_GT(j["timing"]["evaluations_per_second"].get<double>(), 0);
}

// n = 17 (swept by heads): a range around an optimal placement of nug17 (index 332314888919097, QAPLIB's published
// optimum 1732), with its CSV.
TEST_F(CliTopo, SeventeenNodesSweepARangeToNug17sOptimum) {
  KS_REQUIRE_DATA(data("qaplib-20/nug17.dat"));
  const CliResult r = topo({"--qaplib", data("qaplib-20/nug17.dat"), "--range", "332314888000000:332314890000000",
                            "--top", "2", "--json", "r.json", "--csv", "r.csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json("r.json");
  EXPECT_EQ(j["best"]["cost"], 1732);
  EXPECT_EQ(j["best"]["index"], 332314888919097ull);
  const std::vector<std::string> optimal = {"16", "15", "2", "14", "9", "11", "8", "12", "10",
                                            "3",  "4",  "1", "7",  "6", "13", "17", "5"};
  EXPECT_EQ(j["best"]["placement"].get<std::vector<std::string>>(), optimal);
  EXPECT_EQ(j["placements"]["count"], 2000000);
  EXPECT_EQ(j["top"]["placements"][0]["cost"], 1732);
  EXPECT_NE(read_file(dir_ / "r.csv").find(",1732,"), std::string::npos);
}

TEST_F(CliTopo, AbileneIdentityOnItsOwnLinks) {
  KS_REQUIRE_DATA(data("sndlib/abilene.txt"));
  const CliResult r = topo({"--traffic", data("sndlib/abilene.txt"), "--placements", "identity", "--json",
                            "a.json", "--csv", "a.csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json("a.json");
  // 8095027 Mbit/s x hops: worked out by hand in tests/cpu/test_topo_parsers.cpp.
  EXPECT_EQ(j["best"]["cost"], 8095027);
  EXPECT_EQ(j["best"]["configuration"], "abilene.txt links");
  EXPECT_EQ(j["best"]["placement"][0], "ATLAM5");
  EXPECT_EQ(j["best"]["placement"][11], "WASHng");
  const std::string csv = read_file(dir_ / "a.csv");
  EXPECT_EQ(csv.rfind("slice,timestamp,configuration,count,min,max,mean,argmin,placement\n", 0), 0u) << csv;
  EXPECT_NE(csv.find(",abilene.txt links,1,8095027,8095027,"), std::string::npos) << csv;
}

TEST_F(CliTopo, GeneratedTrafficOnSeveralTopologiesPrintsEveryPair) {
  const CliResult r = topo({"--generate", "gravity:n=7,t=3,seed=4", "--topology", "ring", "--topology",
                            "star", "--csv", "g.csv", "--json", "g.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string csv = read_file(dir_ / "g.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'),
            1 + 4 * 2);  // header + (3 timestamps + sum) x 2 topologies
  const auto j = json("g.json");
  ASSERT_EQ(j["results"].size(), 8u);
  // The overall best is the lowest minimum of the timestamps (the summed slice is reported apart).
  double lowest = 1e300;
  for (const auto& e : j["results"])
    if (e["timestamp"] != "sum") lowest = std::min(lowest, e["min"].get<double>());
  EXPECT_EQ(j["best"]["cost"].get<double>(), lowest);
  EXPECT_EQ(j["best_per_timestamp"].size(), 3u);
  EXPECT_FALSE(j["best_over_time"].is_null());
  for (const auto& e : j["results"]) EXPECT_EQ(e["count"], 5040);
}

TEST_F(CliTopo, SplitRangesCoverTheWholeSweep) {
  const std::vector<std::string> common = {"--generate", "uniform:n=8,seed=2", "--topology", "torus:4x2"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = common;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  ASSERT_EQ(topo(with({"--json", "all.json"})).exit_code, 0);
  ASSERT_EQ(topo(with({"--range", "0:17000", "--json", "p1.json"})).exit_code, 0);
  ASSERT_EQ(topo(with({"--range", "17000:", "--json", "p2.json"})).exit_code, 0);
  const auto all = json("all.json"), p1 = json("p1.json"), p2 = json("p2.json");
  EXPECT_EQ(p1["placements"]["count"].get<int>() + p2["placements"]["count"].get<int>(), 40320);
  const double best = std::min(p1["best"]["cost"].get<double>(), p2["best"]["cost"].get<double>());
  EXPECT_EQ(best, all["best"]["cost"].get<double>());
  const auto& winner = p1["best"]["cost"].get<double>() <= p2["best"]["cost"].get<double>() ? p1 : p2;
  EXPECT_EQ(winner["best"]["placement"], all["best"]["placement"]);
}

TEST_F(CliTopo, TooManyNodesSaysHowManyAndOffersSampling) {
  const CliResult r = topo({"--generate", "uniform:n=18,seed=1", "--topology", "ring", "--json", "x.json"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("6.4e+15 placements"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("sample:"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "x.json"));
  const CliResult s = topo({"--generate", "uniform:n=18,seed=1", "--topology", "ring", "--placements",
                            "sample:2000", "--json", "s.json"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_EQ(json("s.json")["placements"]["count"], 2000);
}

TEST_F(CliTopo, PlacementsFromAFile) {
  write_file(dir_ / "p.txt", "# two placements\nv0 v1 v2 v3 v4\nv4,v3,v2,v1,v0\n");
  const CliResult r = topo({"--generate", "uniform:n=5,seed=3,names=v0/v1/v2/v3/v4", "--topology", "ring",
                            "--placements", "p.txt", "--json", "p.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json("p.json")["results"][0]["count"], 2);
  write_file(dir_ / "bad.txt", "v0 v1 v2 v3 v4\nv0 v1 v2 v3 v9\n");
  const CliResult bad = topo({"--generate", "uniform:n=5,seed=3,names=v0/v1/v2/v3/v4", "--topology", "ring",
                              "--placements", "bad.txt"});
  EXPECT_EQ(bad.exit_code, 1) << bad.err;
  EXPECT_NE(bad.err.find("bad.txt line 2"), std::string::npos) << bad.err;
}

TEST_F(CliTopo, BadRequestsExitTwoAndBadFilesExitOne) {
  EXPECT_EQ(topo({"--topology", "ring"}).exit_code, 2);  // no traffic
  EXPECT_EQ(topo({"--generate", "uniform:n=5", "--qaplib", "x.dat"}).exit_code, 2);
  EXPECT_EQ(topo({"--traffic", "missing.txt"}).exit_code, 2);
  EXPECT_EQ(topo({"--generate", "uniform:n=5"}).exit_code, 2);  // generated traffic has no links
  EXPECT_EQ(topo({"--generate", "uniform:n=5", "--topology", "ring", "--range", "9:3"}).exit_code, 2);
  EXPECT_EQ(topo({"--generate", "uniform:n=5", "--topology", "ring", "--range", "0:121"}).exit_code, 2);
  EXPECT_EQ(topo({"--generate", "uniform:n=5", "--topology", "torus:4x2"}).exit_code,
            2);  // 8 positions, 5 nodes
  EXPECT_EQ(topo({"--generate", "uniform:n=5", "--topology", "ring", "--placements", "sample:x"}).exit_code,
            2);

  write_file(dir_ / "bad.dat", "3\n0 1 2\n1 0 1\n2 1 0\n\n0 5 x\n5 0 1\n2 1 0\n");
  const CliResult r = topo({"--qaplib", "bad.dat", "--json", "bad.json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("bad.dat line 6"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "bad.json"));
}

TEST_F(CliTopo, CtrlCKeepsWhatWasEvaluatedAndExits130) {
  // 12! placements on the CPU take seconds: stop it early. (--backend cpu: with a GPU the default is CUDA, which
  // finishes in milliseconds, before the signal.)
  CliProcess p({"topo", "--generate", "uniform:n=12,seed=1", "--topology", "ring", "--backend", "cpu", "--threads",
                "2", "--no-histogram", "--json", "part.json"},
               dir_.path());
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  p.signal(SIGINT);
  const CliResult r = p.wait();
  ASSERT_EQ(r.exit_code, 130) << r.err;
  const auto j = json("part.json");
  EXPECT_FALSE(j["complete"].get<bool>());
  const auto done = j["placements"]["evaluated_end"].get<std::uint64_t>();
  EXPECT_GT(done, 0u);
  EXPECT_LT(done, 479001600u);
  EXPECT_EQ(j["results"][0]["count"].get<std::uint64_t>(), done);
  EXPECT_NE(r.out.find("resume with --range " + std::to_string(done) + ":479001600"), std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace ks::test
