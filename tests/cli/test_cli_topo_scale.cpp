// `topo` beyond one process: mpirun ranks on the CPU backend give the JSON of one process byte for byte (timing and
// how the run was made aside), a rank killed mid-sweep leaves a checkpoint whose resume gives the same result, and
// the bad inputs of these options: foreign, truncated or corrupt checkpoints, --gpus naming a device that is not
// there, more ranks than work, and an mpirun of a build without MPI.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/cli_runner.hpp"
#include "support/shared_data.hpp"
#include "support/test_support.hpp"

namespace ks::test {
namespace {

namespace fs = std::filesystem;

bool cli_has_mpi() {
  TempDir d;
  return run_cli({"--version"}, d.path()).out.find("MPI built in") != std::string::npos;
}

// mpirun with what CI needs: more ranks than cores, and root (CI runs as root).
CliLaunch mpirun(int ranks) {
  CliLaunch l;
#ifdef KS_MPIEXEC
  l.launcher = {KS_MPIEXEC, "-np", std::to_string(ranks), "--oversubscribe", "--bind-to", "none"};
  if (geteuid() == 0) l.launcher.push_back("--allow-run-as-root");
  // Open MPI's hwloc probes X displays :0 to :9 for GPUs (its gl component); a GUI test's Xvfb going away
  // under that probe kills mpirun with an X I/O error, so the ranks do without it.
  l.env.push_back("HWLOC_COMPONENTS=-gl");
#endif
  return l;
}

#define KS_REQUIRE_MPI()                                                        \
  if (!cli_has_mpi() || mpirun(1).launcher.empty()) GTEST_SKIP() << "no MPI in this build"

class CliTopoScale : public ::testing::Test {
 protected:
  CliResult topo(std::vector<std::string> args, const CliLaunch& launch = {}) {
    args.insert(args.begin(), "topo");
    return run_cli(args, dir_.path(), launch);
  }
  // The result without what depends on the run (timings, ranks, checkpoints): what must not change.
  std::string result_of(const std::string& name) {
    nlohmann::json j = nlohmann::json::parse(read_file(dir_ / name));
    j.erase("timing");
    j.erase("run");
    return j.dump(1);
  }
  TempDir dir_;
};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& more) {
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

TEST_F(CliTopoScale, ThreeRanksGiveTheBytesOfOneProcess) {
  KS_REQUIRE_MPI();
  // n = 6 .. 10; exact and real-valued traffic; ranges and chunks that do not divide evenly; ties in the top list
  // (all-to-all traffic on a ring: many placements cost the same); samples.
  std::vector<std::vector<std::string>> cases = {
      {"--generate", "alltoall:n=6", "--topology", "ring", "--top", "25", "--chunk", "37"},
      {"--generate", "gravity:n=7,t=3,seed=2", "--topology", "ring", "--topology", "star", "--top", "10", "--chunk",
       "301"},
      {"--generate", "hotspot:n=8,t=2,seed=3", "--topology", "torus:4x2", "--range", "999:40000", "--chunk", "1234",
       "--top", "4"},
      {"--generate", "uniform:n=9,seed=5", "--topology", "ring", "--placements", "sample:20000", "--seed", "3",
       "--chunk", "777"},
  };
  if (fs::exists(data("qaplib/tai10a.dat")))
    cases.push_back({"--qaplib", data("qaplib/tai10a.dat"), "--top", "3", "--chunk", "170000"});
  for (const auto& c : cases) {
    SCOPED_TRACE(c[1]);
    const CliResult one = topo(with(c, {"--backend", "cpu", "--threads", "1", "--json", "one.json"}));
    ASSERT_EQ(one.exit_code, 0) << one.err;
    const CliResult three = topo(with(c, {"--backend", "cpu", "--threads", "1", "--json", "three.json"}), mpirun(3));
    ASSERT_EQ(three.exit_code, 0) << three.out << three.err;
    EXPECT_EQ(result_of("three.json"), result_of("one.json"));
    const auto j = nlohmann::json::parse(read_file(dir_ / "three.json"));
    EXPECT_EQ(j["run"]["ranks"], 3);
    EXPECT_EQ(j["timing"]["workers"].size(), 3u);
    EXPECT_NE(three.out.find("3 workers on 3 ranks"), std::string::npos) << three.out;
    // Only rank 0 prints.
    EXPECT_EQ(three.out.find("topo: "), three.out.rfind("topo: ")) << three.out;
  }
}

TEST_F(CliTopoScale, MoreRanksThanWorkSaySoAndStillAgree) {
  KS_REQUIRE_MPI();
  const std::vector<std::string> c = {"--generate", "uniform:n=7,seed=1", "--topology", "ring", "--placements",
                                      "identity", "--backend", "cpu", "--threads", "1"};
  ASSERT_EQ(topo(with(c, {"--json", "one.json"})).exit_code, 0);
  const CliResult r = topo(with(c, {"--json", "four.json"}), mpirun(4));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("4 workers share 1 chunk of work: 3 of them have nothing to do"), std::string::npos) << r.err;
  EXPECT_EQ(result_of("four.json"), result_of("one.json"));
}

// The process of a rank of a job started in `dir` (its command line names the folder), or -1.
pid_t rank_process(const fs::path& dir, int rank) {
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string cmd = read_file(e.path() / "cmdline"), env = read_file(e.path() / "environ");
    if (cmd.find("kernelscope-cli") == std::string::npos || cmd.find(dir.string()) == std::string::npos) continue;
    if (env.find(std::string("OMPI_COMM_WORLD_RANK=") + std::to_string(rank) + '\0') != std::string::npos)
      return pid_t(std::stol(name));
  }
  return -1;
}

bool wait_for_file(const fs::path& p, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!fs::exists(p)) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

TEST_F(CliTopoScale, AKilledRankLeavesACheckpointWhoseResumeGivesTheSameResult) {
  KS_REQUIRE_MPI();
  // 11! placements, three passes, on three single-thread ranks: long enough to kill one in the middle.
  const std::vector<std::string> sweep = {"--generate", "uniform:n=11,seed=7", "--topology", "ring", "--backend",
                                          "cpu", "--top", "5"};
  const std::string file = (dir_ / "job.checkpoint").string();
  const std::vector<std::string> job = with(with({"topo"}, sweep), {"--threads", "1", "--chunk", "200000",
                                                                    "--checkpoint", file, "--checkpoint-every", "0.05"});
  CliProcess ranks(with(job, {"--json", "killed.json"}), dir_.path(), mpirun(3));
  ASSERT_TRUE(wait_for_file(file, 120)) << ranks.err();  // the first chunks are merged
  const pid_t victim = rank_process(dir_.path(), 2);
  ASSERT_GT(victim, 0);
  kill(victim, SIGKILL);
  const CliResult killed = ranks.wait();
  EXPECT_NE(killed.exit_code, 0);
  // mpirun then stops every rank (SIGTERM, SIGKILL a second later): rank 0 checkpoints on SIGTERM, and when it
  // gets the time, prints what was lost and the command that resumes; the periodic checkpoint covers the rest.
  const auto state = nlohmann::json::parse(read_file(file));
  EXPECT_EQ(state["sweep"]["pass"], "sweep") << killed.err;
  EXPECT_GT(state["evaluations"].get<std::uint64_t>(), 0u);

  const CliResult resumed = topo(with(sweep, {"--resume", file, "--json", "resumed.json"}));
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  const CliResult whole = topo(with(sweep, {"--chunk", "200000", "--json", "whole.json"}));
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  EXPECT_EQ(result_of("resumed.json"), result_of("whole.json"));
  EXPECT_EQ(nlohmann::json::parse(read_file(dir_ / "resumed.json"))["run"]["sessions"], 2);

  // SIGTERM (a Slurm time limit) on a single process: a checkpoint, the command that resumes, exit 143.
  fs::remove(file);
  CliProcess alone(job, dir_.path());
  ASSERT_TRUE(wait_for_file(file, 120)) << alone.err();
  alone.signal(SIGTERM);
  const CliResult term = alone.wait();
  EXPECT_EQ(term.exit_code, 143) << term.err;
  EXPECT_NE(term.err.find("resume with:"), std::string::npos) << term.err;
  EXPECT_NE(term.err.find("--resume " + file), std::string::npos) << term.err;
  const CliResult again = topo(with(sweep, {"--resume", file, "--json", "again.json"}));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(result_of("again.json"), result_of("whole.json"));
}

TEST_F(CliTopoScale, ForeignTruncatedAndCorruptCheckpointsAreRefused) {
  const std::vector<std::string> c7 = {"--generate", "uniform:n=7,seed=1", "--topology", "ring", "--backend", "cpu"};
  ASSERT_EQ(topo(with(c7, {"--checkpoint", "seven.checkpoint"})).exit_code, 0);
  const CliResult foreign = topo({"--generate", "uniform:n=8,seed=1", "--topology", "ring", "--backend", "cpu",
                                  "--resume", "seven.checkpoint", "--json", "x.json"});
  EXPECT_EQ(foreign.exit_code, 2) << foreign.err;
  EXPECT_NE(foreign.err.find("belongs to another sweep"), std::string::npos) << foreign.err;
  EXPECT_NE(foreign.err.find("7 nodes"), std::string::npos) << foreign.err;
  EXPECT_FALSE(fs::exists(dir_ / "x.json"));

  const std::string good = read_file(dir_ / "seven.checkpoint");
  write_file(dir_ / "cut.checkpoint", good.substr(0, good.size() * 2 / 3));
  const CliResult cut = topo(with(c7, {"--resume", "cut.checkpoint"}));
  EXPECT_EQ(cut.exit_code, 1) << cut.err;
  EXPECT_NE(cut.err.find("truncated"), std::string::npos) << cut.err;
  std::string bad = good;
  bad[bad.find(',', bad.find("\"evaluations\":")) - 1] ^= 1;  // its last digit changed
  write_file(dir_ / "bad.checkpoint", bad);
  const CliResult corrupt = topo(with(c7, {"--resume", "bad.checkpoint"}));
  EXPECT_EQ(corrupt.exit_code, 1) << corrupt.err;
  EXPECT_NE(corrupt.err.find("corrupt"), std::string::npos) << corrupt.err;
  const CliResult missing = topo(with(c7, {"--resume", "none.checkpoint"}));
  EXPECT_EQ(missing.exit_code, 2) << missing.err;
}

TEST_F(CliTopoScale, BadScaleOptionsExitTwo) {
  const std::vector<std::string> c = {"--generate", "uniform:n=6,seed=1", "--topology", "ring"};
  EXPECT_EQ(topo(with(c, {"--gpus", "0,x"})).exit_code, 2);
  EXPECT_EQ(topo(with(c, {"--backend", "cpu", "--gpus", "0"})).exit_code, 2);
  EXPECT_EQ(topo(with(c, {"--backend", "cpu", "--max-time", "soon"})).exit_code, 2);
  EXPECT_EQ(topo(with(c, {"--backend", "cpu", "--chunk", "0"})).exit_code, 2);
  EXPECT_EQ(topo(with(c, {"--backend", "cpu", "--checkpoint", "c", "--repeat", "3"})).exit_code, 2);
  // A device that is not there: a usage error naming the devices there are; without CUDA, the device error.
  const CliResult r = topo(with(c, {"--gpus", "0,99"}));
  if (gpu_available()) {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("there is no CUDA device 99"), std::string::npos) << r.err;
  } else {
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("CUDA"), std::string::npos) << r.err;
  }
}

TEST_F(CliTopoScale, ABuildWithoutMpiUnderMpirunSaysSoInsteadOfSweepingOncePerRank) {
  if (cli_has_mpi()) GTEST_SKIP() << "this build has MPI (the sanitizer build of scripts/gpu-check has not)";
  const std::vector<std::string> c = {"--generate", "uniform:n=6,seed=1", "--topology", "ring", "--json", "r.json"};
  CliLaunch rank0{{}, {"OMPI_COMM_WORLD_SIZE=3", "OMPI_COMM_WORLD_RANK=0"}};
  const CliResult r = topo(c, rank0);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("built without MPI"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("3 processes would run the whole sweep"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(fs::exists(dir_ / "r.json"));
  CliLaunch rank2{{}, {"OMPI_COMM_WORLD_SIZE=3", "OMPI_COMM_WORLD_RANK=2"}};
  const CliResult q = topo(c, rank2);
  EXPECT_EQ(q.exit_code, 1);
  EXPECT_EQ(q.err, "");  // rank 0 says it once
}

// ---- the proof (--placements bnb) across ranks ----

// The proof of a QAPLIB instance in one process, or under `launch`: its JSON.
nlohmann::json prove_json(const fs::path& dir, const std::string& name, const std::vector<std::string>& extra,
                          const std::string& json, const CliLaunch& launch = {}) {
  const CliResult r = run_cli(with({"--threads", "1", "topo", "--qaplib", data("qaplib/" + name + ".dat"),
                                    "--placements", "bnb", "--json", json},
                                   extra),
                              dir, launch);
  EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(read_file(dir / json)) : nlohmann::json{};
}

// Subtrees the ranks other than rank 0 finished, from rank 0's note.
std::uint64_t subtrees_of_other_ranks(const nlohmann::json& j) {
  std::uint64_t total = 0;
  for (const auto& note : j["notes"]) {
    const std::string text = note.get<std::string>();
    if (text.rfind("subtrees finished by the other ranks: ", 0) != 0) continue;
    for (std::size_t at = text.find("rank "); at != std::string::npos; at = text.find("rank ", at + 1))
      total += std::stoull(text.substr(text.find(' ', at + 5) + 1));
  }
  return total;
}

void expect_same_proof(const nlohmann::json& one, const nlohmann::json& ranks, const std::string& name) {
  ASSERT_FALSE(one.is_null()) << name;
  ASSERT_FALSE(ranks.is_null()) << name;
  EXPECT_TRUE(ranks["proof"]["optimal"].get<bool>()) << name;
  EXPECT_EQ(ranks["best"]["cost"], one["best"]["cost"]) << name;
  EXPECT_EQ(ranks["proof"]["nodes"], one["proof"]["nodes"]) << name;
  EXPECT_EQ(ranks["proof"]["root_bound"], one["proof"]["root_bound"]) << name;
  EXPECT_EQ(ranks["proof"]["best_bound"], one["proof"]["best_bound"]) << name;
}

// Three single-thread ranks prove what one process proves: the same optimum (QAPLIB's), and, the tabu search's
// incumbent being optimal from the start, the same nodes; the other ranks did part of it.
TEST_F(CliTopoScale, AProofOnThreeRanksIsTheProofOfOneProcess) {
  KS_REQUIRE_MPI();
  for (const auto& [name, optimum] : {std::pair{"nug12", 578}, std::pair{"chr15a", 9896}, std::pair{"nug14", 1014}}) {
    KS_REQUIRE_DATA(data(std::string("qaplib/") + name + ".dat"));
    const nlohmann::json one = prove_json(dir_.path(), name, {}, "one.json");
    const nlohmann::json three = prove_json(dir_.path(), name, {}, "three.json", mpirun(3));
    expect_same_proof(one, three, name);
    EXPECT_EQ(three["best"]["cost"], optimum) << name;
    EXPECT_GT(subtrees_of_other_ranks(three), 0u) << name << ": " << three["notes"].dump();
    EXPECT_EQ(subtrees_of_other_ranks(one), 0u) << name;
  }
}

// mpirun stopped by SIGTERM (a Slurm time limit; mpirun passes Ctrl-C on as SIGTERM) during a proof on three
// ranks: rank 0 keeps the checkpoint (the subtrees every rank finished), and three ranks resume it to the
// proof of one uninterrupted process.
TEST_F(CliTopoScale, AProofStoppedOnRanksResumesToTheSameProof) {
  KS_REQUIRE_MPI();
  KS_REQUIRE_DATA(data("qaplib/tai15a.dat"));
  const std::string file = (dir_ / "proof.checkpoint").string();
  CliProcess ranks({"--threads", "1", "topo", "--qaplib", data("qaplib/tai15a.dat"), "--placements", "bnb",
                    "--checkpoint", file, "--checkpoint-every", "0.1"},
                   dir_.path(), mpirun(3));
  ASSERT_TRUE(wait_for_file(file, 120)) << ranks.err();
  ranks.signal(SIGTERM);
  const CliResult stopped = ranks.wait();
  EXPECT_NE(stopped.exit_code, 0) << stopped.out;
  ASSERT_TRUE(fs::exists(file));
  const nlohmann::json resumed = prove_json(dir_.path(), "tai15a", {"--resume", file}, "resumed.json", mpirun(3));
  const nlohmann::json one = prove_json(dir_.path(), "tai15a", {}, "one.json");
  expect_same_proof(one, resumed, "tai15a resumed");
  EXPECT_EQ(resumed["timing"]["sessions"], 2) << resumed.dump();
  EXPECT_GT(subtrees_of_other_ranks(resumed), 0u) << "the stop came after the end: " << resumed["notes"].dump();

  // A rank killed mid-proof: mpirun stops the others (SIGTERM to rank 0, which checkpoints), the job fails, and
  // the checkpoint resumes to the same proof.
  fs::remove(file);
  CliProcess again({"--threads", "1", "topo", "--qaplib", data("qaplib/tai15a.dat"), "--placements", "bnb",
                    "--checkpoint", file, "--checkpoint-every", "0.1"},
                   dir_.path(), mpirun(3));
  ASSERT_TRUE(wait_for_file(file, 120)) << again.err();
  const pid_t victim = rank_process(dir_.path(), 2);
  ASSERT_GT(victim, 0);
  kill(victim, SIGKILL);
  EXPECT_NE(again.wait().exit_code, 0);
  ASSERT_TRUE(fs::exists(file));
  const nlohmann::json after_kill = prove_json(dir_.path(), "tai15a", {"--resume", file}, "killed.json");
  expect_same_proof(one, after_kill, "tai15a resumed after a rank was killed");
}

// The test hook of cli/bnb_devices.hpp: N CPU evaluators stand in for the GPUs (CI has none).
CliLaunch with_stand_in_gpus(CliLaunch launch, int gpus) {
  launch.env.push_back("KS_TEST_BNB_STAND_IN_GPUS=" + std::to_string(gpus));
  return launch;
}

std::string notes_of(const nlohmann::json& j) {
  std::string out;
  for (const auto& note : j["notes"]) out += note.get<std::string>() + "\n";
  return out;
}

// Ranks with GPUs (two stand-ins on this host): two ranks take a GPU each, three share them (rank 2 takes GPU 0,
// with a note), and every rank feeds its GPU the subtrees rank 0 hands out: the proof of one process on the CPU.
TEST_F(CliTopoScale, AProofOnRanksWithGpusIsTheProofOfOneProcess) {
  KS_REQUIRE_MPI();
  for (const auto& [name, optimum] : {std::pair{"nug12", 578}, std::pair{"chr15a", 9896}}) {
    KS_REQUIRE_DATA(data(std::string("qaplib/") + name + ".dat"));
    const nlohmann::json one = prove_json(dir_.path(), name, {}, "one.json");
    for (int ranks : {2, 3}) {
      SCOPED_TRACE(fmt::format("{} on {} ranks", name, ranks));
      const CliResult r = run_cli({"--threads", "1", "topo", "--qaplib", data(std::string("qaplib/") + name + ".dat"),
                                   "--placements", "bnb", "--backend", "cuda", "--json", "gpus.json"},
                                  dir_.path(), with_stand_in_gpus(mpirun(ranks), 2));
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const nlohmann::json j = nlohmann::json::parse(read_file(dir_ / "gpus.json"));
      expect_same_proof(one, j, name);
      EXPECT_EQ(j["best"]["cost"], optimum);
      EXPECT_GT(subtrees_of_other_ranks(j), 0u) << notes_of(j);
      EXPECT_NE(r.out.find("node batches on stand-in GPU 0"), std::string::npos) << r.out;
      const std::string notes = notes_of(j);
      EXPECT_NE(notes.find("CPU (1 threads) + stand-in GPU 1 (batches)"), std::string::npos) << notes;
      if (ranks == 3) {
        EXPECT_NE(notes.find("CPU (1 threads) + stand-in GPU 0 (batches)"), std::string::npos) << notes;
        EXPECT_NE(r.err.find("3 ranks on"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("share its 2 GPU(s)"), std::string::npos) << r.err;
      } else {
        EXPECT_EQ(r.err.find("share"), std::string::npos) << r.err;
      }
    }
  }
}

// --gpus applies to every rank: two ranks of two threads each feed both GPUs of the list (and share them, as
// the note says), to the proof of one process.
TEST_F(CliTopoScale, AProofOnRanksFeedsEveryGpuListedOnEachRank) {
  KS_REQUIRE_MPI();
  KS_REQUIRE_DATA(data("qaplib/nug12.dat"));
  const nlohmann::json one = prove_json(dir_.path(), "nug12", {}, "one.json");
  const CliResult r = run_cli({"--threads", "2", "topo", "--qaplib", data("qaplib/nug12.dat"), "--placements", "bnb",
                               "--gpus", "0,1", "--json", "gpus.json"},
                              dir_.path(), with_stand_in_gpus(mpirun(2), 2));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(read_file(dir_ / "gpus.json"));
  expect_same_proof(one, j, "nug12");
  EXPECT_NE(r.out.find("node batches on stand-in GPU 0, stand-in GPU 1"), std::string::npos) << r.out;
  EXPECT_NE(notes_of(j).find("CPU (2 threads) + stand-in GPU 0, stand-in GPU 1 (batches)"), std::string::npos)
      << notes_of(j);
  EXPECT_NE(r.err.find("each of the 2 ranks on"), std::string::npos) << r.err;
}

// --feeders: two threads feed one (stand-in) GPU batches of their own, to the proof of the CPU alone, and the JSON
// says how many nodes each evaluated in how long. More feeders than threads, and --feeders outside a proof, are
// refused before any work.
TEST_F(CliTopoScale, TwoThreadsFeedingOneGpuProveWhatTheCpuProves) {
  KS_REQUIRE_DATA(data("qaplib/nug12.dat"));
  const nlohmann::json one = prove_json(dir_.path(), "nug12", {}, "one.json");
  const CliResult r = run_cli({"--threads", "3", "topo", "--qaplib", data("qaplib/nug12.dat"), "--placements", "bnb",
                               "--backend", "cuda", "--feeders", "2", "--json", "fed.json"},
                              dir_.path(), with_stand_in_gpus({}, 1));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(read_file(dir_ / "fed.json"));
  expect_same_proof(one, j, "nug12");
  EXPECT_NE(r.out.find("node batches on stand-in GPU 0 with 2 feeding threads"), std::string::npos) << r.out;
  EXPECT_EQ(j["timing"]["device"], "CPU (3 threads) + stand-in GPU 0 with 2 feeding threads (batches)");
  const nlohmann::json& feeders = j["timing"]["feeders"];
  ASSERT_EQ(feeders.size(), 2u) << j["timing"].dump();
  std::uint64_t nodes = 0;
  for (const auto& f : feeders) {
    EXPECT_EQ(f["device"], "stand-in GPU 0");
    EXPECT_EQ(f["device_seconds"].get<double>(), 0.0);  // a stand-in has no kernels
    if (f["nodes"].get<std::uint64_t>() > 0) {
      EXPECT_GT(f["batches"].get<std::uint64_t>(), 0u);
      EXPECT_GT(f["evaluate_seconds"].get<double>(), 0.0);
    }
    nodes += f["nodes"].get<std::uint64_t>();
  }
  // The feeders evaluate the subtrees' roots and the nodes below them: part of the proof's nodes.
  EXPECT_GT(nodes, 0u);
  EXPECT_LE(nodes, j["proof"]["nodes"].get<std::uint64_t>() + j["configurations"][0]["subtrees"].get<std::uint64_t>());
  // How often a feeding thread gave part of its last subtrees to an idle one (none or some: timing decides).
  EXPECT_TRUE(j["timing"]["shared_pieces"].is_number_unsigned()) << j["timing"].dump();

  const CliResult many = run_cli({"--threads", "2", "topo", "--qaplib", data("qaplib/nug12.dat"), "--placements",
                                  "bnb", "--backend", "cuda", "--feeders", "3"},
                                 dir_.path(), with_stand_in_gpus({}, 1));
  EXPECT_EQ(many.exit_code, 2) << many.err;
  EXPECT_NE(many.err.find("3 threads to feed the GPUs' node batches and 2 thread(s) in all"), std::string::npos)
      << many.err;
  const CliResult sweep =
      run_cli({"topo", "--qaplib", data("qaplib/nug12.dat"), "--placements", "all", "--feeders", "2"}, dir_.path());
  EXPECT_EQ(sweep.exit_code, 2) << sweep.err;
  EXPECT_NE(sweep.err.find("--feeders applies to --placements bnb"), std::string::npos) << sweep.err;
}

// A proof on two ranks with GPUs stopped by its time limit keeps its checkpoint (the Assigns each rank finished),
// and two ranks with GPUs resume it to the proof of one uninterrupted process.
TEST_F(CliTopoScale, AProofOnRanksWithGpusStoppedByItsTimeResumesToTheSameProof) {
  KS_REQUIRE_MPI();
  KS_REQUIRE_DATA(data("qaplib/tai15a.dat"));
  const std::string file = (dir_ / "proof.checkpoint").string();
  const CliLaunch two = with_stand_in_gpus(mpirun(2), 2);
  const nlohmann::json stopped = prove_json(
      dir_.path(), "tai15a", {"--backend", "cuda", "--time", "1", "--checkpoint", file}, "stopped.json", two);
  ASSERT_FALSE(stopped.is_null());
  ASSERT_FALSE(stopped["proof"]["optimal"].get<bool>()) << "proved within 1 s: nothing to resume";
  ASSERT_TRUE(fs::exists(file));
  const nlohmann::json resumed =
      prove_json(dir_.path(), "tai15a", {"--backend", "cuda", "--resume", file}, "resumed.json", two);
  const nlohmann::json one = prove_json(dir_.path(), "tai15a", {}, "one.json");
  expect_same_proof(one, resumed, "tai15a resumed on ranks with GPUs");
  EXPECT_EQ(resumed["timing"]["sessions"], 2) << resumed.dump();
}

// --backend cuda under mpirun on a host without a GPU: a clear error naming the host, no rank left waiting.
TEST_F(CliTopoScale, AProofOnRanksWithoutAGpuSaysSo) {
  KS_REQUIRE_MPI();
  const CliResult r = topo({"--generate", "uniform:n=6,seed=1", "--topology", "ring", "--placements", "bnb",
                            "--backend", "cuda"},
                           with_stand_in_gpus(mpirun(2), 0));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("has no usable CUDA device"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--backend cpu"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ks::test
