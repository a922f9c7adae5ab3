// `topo --placements bnb`: the proof of QAPLIB's nug12 with the JSON `proof` object, the CSV and the gap chart,
// timestamps x configurations against the exhaustive sweep's optimum, a run stopped by Ctrl-C and resumed from
// its checkpoint (the library's tests resume one to the same proof), --time, --estimate, and bad requests (exit 2)
// with the options that do not apply.
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/cli_runner.hpp"
#include "support/shared_data.hpp"
#include "support/test_support.hpp"

namespace ks::test {
namespace {

// A proof of a small generated network with `extra` options, for the requests to refuse.
std::vector<std::string> small_proof(const std::vector<std::string>& extra) {
  std::vector<std::string> a = {"topo", "--placements", "bnb", "--generate", "uniform:n=6,seed=1", "--topology", "ring"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

class CliBnb : public ::testing::Test {
 protected:
  CliResult prove(std::vector<std::string> args) {
    args.insert(args.begin(), {"topo", "--placements", "bnb"});
    args.insert(args.end(), {"--threads", "2"});
    return run_cli(args, dir_.path());
  }
  nlohmann::json json(const std::string& name) { return nlohmann::json::parse(read_file(dir_ / name)); }
  TempDir dir_;
};

TEST_F(CliBnb, Nug12IsProvedOptimal) {
  KS_REQUIRE_DATA(data("qaplib/nug12.dat"));
  const CliResult r =
      prove({"--qaplib", data("qaplib/nug12.dat"), "--reference", "578", "--json", "r.json", "--csv", "r.csv",
             "--chart", "gap.svg"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("proved optimal: no placement costs less than 578"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("QAPLIB nug12: objective 578"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reference: 0.00% above --reference 578"), std::string::npos) << r.out;
  const auto j = json("r.json");
  EXPECT_EQ(j["schema"], "kernelscope.topo.bnb/1");
  EXPECT_EQ(j["best"]["cost"], 578);
  EXPECT_EQ(j["best"]["placement"].size(), 12u);
  const auto& proof = j["proof"];
  EXPECT_TRUE(proof["optimal"].get<bool>());
  EXPECT_EQ(proof["best_bound"], 578);
  EXPECT_LT(proof["root_bound"].get<double>(), 578);
  EXPECT_GT(proof["nodes"].get<std::uint64_t>(), 0u);
  EXPECT_GT(proof["seconds"].get<double>(), 0);
  EXPECT_TRUE(j["complete"].get<bool>());
  // The gap curve: bounds never fall, the best found never rises, and they meet at the end.
  const auto& curve = j["configurations"][0]["curve"];
  ASSERT_GE(curve.size(), 1u);
  for (std::size_t k = 1; k < curve.size(); ++k) {
    EXPECT_GE(curve[k]["bound"].get<double>(), curve[k - 1]["bound"].get<double>());
    EXPECT_LE(curve[k]["incumbent"].get<double>(), curve[k - 1]["incumbent"].get<double>());
  }
  EXPECT_EQ(curve.back()["bound"], 578);
  EXPECT_NE(read_file(dir_ / "r.csv").find(",nug12 A,1,578,578,"), std::string::npos);
  EXPECT_EQ(read_file(dir_ / "gap.svg").rfind("<svg", 0), 0u);
}

// The summed traffic of three timestamps on two topologies: each configuration's proved cost is the exhaustive
// sweep's minimum of the summed slice.
TEST_F(CliBnb, TimestampsAndConfigurationsEqualTheSweep) {
  const std::vector<std::string> inputs = {"--generate", "gravity:n=8,t=3,seed=4", "--topology", "ring",
                                           "--topology", "torus:4x2"};
  std::vector<std::string> sweep = {"topo", "--placements", "all", "--backend", "cpu", "--threads", "2",
                                    "--no-histogram", "--json", "s.json"};
  sweep.insert(sweep.end(), inputs.begin(), inputs.end());
  ASSERT_EQ(run_cli(sweep, dir_.path()).exit_code, 0);
  std::vector<std::string> args = inputs;
  args.insert(args.end(), {"--json", "b.json"});
  const CliResult r = prove(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto s = json("s.json"), b = json("b.json");
  EXPECT_TRUE(b["proof"]["optimal"].get<bool>());
  ASSERT_EQ(b["configurations"].size(), 2u);
  for (const auto& c : b["configurations"]) {
    const auto name = c["configuration"].get<std::string>();
    bool found = false;
    for (const auto& row : s["results"])
      if (row["timestamp"] == "sum" && row["configuration"] == name) {
        found = true;
        EXPECT_EQ(c["cost"].get<double>(), row["min"].get<double>()) << name;
      }
    EXPECT_TRUE(found) << name;
    EXPECT_TRUE(c["proof"]["optimal"].get<bool>());
  }
}

TEST_F(CliBnb, CtrlCKeepsTheGapAndTheCheckpointGoesOn) {
  KS_REQUIRE_DATA(data("qaplib/had16.dat"));
  CliProcess p({"topo", "--placements", "bnb", "--qaplib", data("qaplib/had16.dat").string(), "--threads", "2",
                "--checkpoint", "had16.checkpoint", "--checkpoint-every", "0.5", "--json", "part.json"},
               dir_.path());
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  p.signal(SIGINT);
  const CliResult r = p.wait();
  ASSERT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.out.find("not proved (stopped by Ctrl-C)"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("resume with:"), std::string::npos) << r.err;
  const auto part = json("part.json");
  EXPECT_FALSE(part["proof"]["optimal"].get<bool>());
  EXPECT_FALSE(part["complete"].get<bool>());
  EXPECT_EQ(part["stopped_by"], "cancel");
  EXPECT_LE(part["proof"]["best_bound"].get<double>(), 3720);  // had16's optimum
  EXPECT_GE(part["best"]["cost"].get<double>(), 3720);
  EXPECT_EQ(part["checkpoint"], "had16.checkpoint");

  // The resumed run starts from the checkpoint: a second session, its bound no lower than the first's.
  const CliResult again = prove({"--qaplib", data("qaplib/had16.dat"), "--resume", "had16.checkpoint", "--time", "1",
                                 "--json", "again.json"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const auto j = json("again.json");
  EXPECT_EQ(j["timing"]["sessions"], 2);
  EXPECT_GE(j["proof"]["best_bound"].get<double>(), part["proof"]["best_bound"].get<double>());
  EXPECT_GE(j["proof"]["nodes"].get<double>(), part["proof"]["nodes"].get<double>());
}

TEST_F(CliBnb, ATimeLimitReportsTheGap) {
  const CliResult r = prove({"--generate", "uniform:n=26,seed=3", "--topology", "ring", "--time", "1", "--json",
                             "t.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("not proved (stopped by the time limit)"), std::string::npos) << r.out;
  const auto j = json("t.json");
  EXPECT_EQ(j["stopped_by"], "time");
  EXPECT_FALSE(j["proof"]["optimal"].get<bool>());
  EXPECT_LT(j["proof"]["best_bound"].get<double>(), j["best"]["cost"].get<double>());
}

TEST_F(CliBnb, BadRequestsExitTwo) {
  const auto with = small_proof;
  expect_refused(with({"--range", "0:100"}), 2, "apply to sweeps", dir_.path());
  expect_refused(with({"--top", "3"}), 2, "apply to sweeps", dir_.path());
  expect_refused(with({"--iterations", "10"}), 2, "apply to --placements search", dir_.path());
  expect_refused(with({"--time", "0"}), 2, "proves nothing", dir_.path());
  expect_refused(with({"--time", "soon"}), 2, "--time", dir_.path());
  expect_refused({"topo", "--placements", "bnb", "--generate", "uniform:n=30,seed=1", "--topology", "ring"}, 2,
                 "no time limit was given", dir_.path());
  expect_refused(with({"--resume", "missing.checkpoint"}), 2, "there is no checkpoint", dir_.path());
}

// --backend cuda feeds node batches to GPU 0: without one it says so (exit 1, the request is fine) and names
// the CPU backend. With a device the GPU tests (test_topo_bnb_cuda.cpp) prove with it.
TEST_F(CliBnb, CudaBackendWithoutADeviceNamesTheCpu) {
  if (gpu_available()) GTEST_SKIP() << "a CUDA device is here";
  expect_refused({"topo", "--placements", "bnb", "--generate", "uniform:n=6,seed=1", "--topology", "ring", "--backend",
                  "cuda"},
                 1, "--backend cpu", dir_.path());
}

// --gpus names the GPUs that bound node batches (a feeding thread each): CUDA's, so with --backend cpu it is
// refused, as a misspelt list is; without a device "all" names the CPU backend (exit 1, the request is fine).
TEST_F(CliBnb, GpusAreCudasAndSpelledAsForSweeps) {
  const auto with = small_proof;
  expect_refused(with({"--gpus", "0,1", "--backend", "cpu"}), 2, "--gpus applies to the CUDA backend", dir_.path());
  expect_refused(with({"--gpus", "first"}), 2, "not 'all' or a list of device numbers", dir_.path());
  if (gpu_available()) GTEST_SKIP() << "a CUDA device is here";
  expect_refused(with({"--gpus", "all"}), 1, "--backend cpu", dir_.path());
}

// --estimate: the tree's size before a proof, in text and JSON, near the nodes the proof then explores; and
// the requests it refuses (exit 2): no probes, options of the proof, other placements.
TEST_F(CliBnb, AnEstimateComesNearTheProofsNodes) {
  KS_REQUIRE_DATA(data("qaplib/nug12.dat"));
  const CliResult e = prove({"--qaplib", data("qaplib/nug12.dat"), "--estimate", "20000", "--json", "e.json"});
  ASSERT_EQ(e.exit_code, 0) << e.err;
  EXPECT_NE(e.out.find("nodes (standard error"), std::string::npos) << e.out;
  EXPECT_EQ(e.out.find("proved optimal"), std::string::npos) << "an estimate proves nothing: " << e.out;
  const auto est = json("e.json");
  EXPECT_EQ(est["schema"], "kernelscope.topo.bnb-estimate/1");
  EXPECT_EQ(est["probes"], 20000);
  ASSERT_EQ(est["configurations"].size(), 1u);
  EXPECT_EQ(est["configurations"][0]["incumbent"], "578");
  const CliResult r = prove({"--qaplib", data("qaplib/nug12.dat"), "--json", "r.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const double nodes = json("r.json")["proof"]["nodes"].get<double>();
  const double estimate = est["configurations"][0]["nodes"].get<double>();
  const double error = est["configurations"][0]["standard_error"].get<double>();
  // Within four standard errors (or 1%, where that is tiny) of the nodes the proof counts.
  EXPECT_NEAR(estimate, nodes, std::max(4 * error, 0.01 * nodes)) << "standard error " << error;
  EXPECT_LT(error, 0.01 * estimate);

  const auto with = small_proof;
  expect_refused(with({"--estimate", "0"}), 2, "number of probes", dir_.path());
  expect_refused(with({"--estimate", "100", "--time", "10"}), 2, "belong to the proof", dir_.path());
  expect_refused(with({"--estimate", "100", "--checkpoint", "c.checkpoint"}), 2, "belong to the proof",
                 dir_.path());
  expect_refused(with({"--estimate", "100", "--reference", "5"}), 2, "belong to the proof", dir_.path());
  expect_refused({"topo", "--placements", "all", "--generate", "uniform:n=6,seed=1", "--topology", "ring",
                  "--estimate", "100"},
                 2, "--estimate applies to --placements bnb", dir_.path());
  expect_refused({"topo", "--placements", "search", "--generate", "uniform:n=6,seed=1", "--topology", "ring",
                  "--estimate", "100"},
                 2, "--estimate applies to --placements bnb", dir_.path());
}

}  // namespace
}  // namespace ks::test
