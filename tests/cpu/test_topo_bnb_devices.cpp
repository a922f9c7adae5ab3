// Branch and bound with several node evaluators (BnbRequest::evaluators, --gpus 0,1): each fed by a pool
// thread of its own from the same counter of subtree groups. Two CPU evaluators stand in for two GPUs (the
// machine running CI has none): they explore the tree of one evaluator and of the CPU dive (the same nodes, to
// the same optimum), each takes part of the work, a stopped run resumes to the same proof, and a failing one
// ends the run. The optima come from QAPLIB; the node counts from the CPU dive, the other implementation.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "support/counting_evaluator.hpp"
#include "support/qaplib_optima.hpp"
#include "support/shared_data.hpp"
#include "support/shared_pool.hpp"
#include "support/test_support.hpp"
#include "topo/bnb/bnb.hpp"
#include "topo/bnb/node_batch.hpp"

namespace ks::topo {
namespace {

using test::CountingEvaluator;
using test::data;
using test::qaplib_problem;
namespace fs = std::filesystem;

void expect_same_proof(const BnbResult& one, const BnbResult& two, const std::string& name) {
  EXPECT_TRUE(one.best().proof.optimal) << name;
  EXPECT_TRUE(two.best().proof.optimal) << name;
  EXPECT_EQ(two.best().best.scaled, one.best().best.scaled) << name;
  EXPECT_EQ(two.best().proof.root_bound.scaled, one.best().proof.root_bound.scaled) << name;
  EXPECT_EQ(two.best().proof.nodes, one.best().proof.nodes) << name;
}

// Both threads feed a device (no diver), then two devices beside a diver: the CPU dive's tree and optimum.
TEST(BnbDevices, TwoEvaluatorsExploreTheTreeOfOne) {
  std::uint64_t a_nodes = 0, b_nodes = 0;  // over the four proofs
  for (const auto& [file, optimum] : {std::pair{"qaplib/nug12.dat", 578}, std::pair{"qaplib/chr15a.dat", 9896}}) {
    KS_REQUIRE_DATA(data(file));
    const Problem p = qaplib_problem(data(file));
    const BnbResult dive = prove(p, {}, {}, test::pool<2>());
    for (ThreadPool* pool : {&test::pool<2>(), &test::pool<3>()}) {
      CountingEvaluator a("device A"), b("device B");
      BnbRequest r;
      r.evaluators = {&a, &b};
      const BnbResult two = prove(p, r, {}, *pool);
      EXPECT_EQ(two.best().best.scaled, optimum) << file;
      expect_same_proof(dive, two, file);
      EXPECT_NE(two.device.find("device A, device B (batches)"), std::string::npos) << two.device;
      if (pool == &test::pool<2>()) {  // no diver: the devices bounded every node below the frontier
        EXPECT_GE(a.nodes() + b.nodes(), two.best().proof.nodes - two.best().subtrees);
      }
      a_nodes += a.nodes();
      b_nodes += b.nodes();
    }
  }
  // Both took groups of subtrees (each group is milliseconds of work, thousands of subtrees in all). Over the four
  // proofs, not each: on a loaded machine a diver and one device can end nug12 before the other device's thread
  // first runs.
  EXPECT_GT(a_nodes, 0u);
  EXPECT_GT(b_nodes, 0u);
}

// Three devices on three threads, nug14's tree.
TEST(BnbDevices, ThreeDevicesOnThreeThreadsExploreTheCpuTree) {
  KS_REQUIRE_DATA(data("qaplib/nug14.dat"));
  const Problem p = qaplib_problem(data("qaplib/nug14.dat"));
  const BnbResult dive = prove(p, {}, {}, test::pool<3>());
  CountingEvaluator a("A"), b("B"), c("C");
  BnbRequest r;
  r.evaluators = {&a, &b, &c};
  const BnbResult three = prove(p, r, {}, test::pool<3>());
  EXPECT_EQ(three.best().best.scaled, 1014);
  expect_same_proof(dive, three, "nug14");
  EXPECT_NE(three.device.find("+ A, B, C (batches)"), std::string::npos) << three.device;
}

// Every thread feeds a GPU, up to 16 each, at least one (cli/bnb_devices.cpp asks this when --feeders is left out).
TEST(BnbDevices, EveryThreadFeedsAGpuUpToSixteenEach) {
  EXPECT_EQ(default_feeders_per_gpu(1, 1), 1);
  EXPECT_EQ(default_feeders_per_gpu(2, 1), 2);
  EXPECT_EQ(default_feeders_per_gpu(16, 1), 16);
  EXPECT_EQ(default_feeders_per_gpu(64, 1), 16);
  EXPECT_EQ(default_feeders_per_gpu(32, 2), 16);
  EXPECT_EQ(default_feeders_per_gpu(33, 4), 8);
  EXPECT_EQ(default_feeders_per_gpu(3, 4), 1);  // more GPUs than threads: the proof says --threads is short
  EXPECT_EQ(default_feeders_per_gpu(0, 1), 1);
  EXPECT_EQ(default_feeders_per_gpu(8, 0), 1);
}

TEST(BnbDevices, MoreDevicesThanThreadsIsRefused) {
  KS_REQUIRE_DATA(data("qaplib/nug12.dat"));
  const Problem p = qaplib_problem(data("qaplib/nug12.dat"));
  CountingEvaluator a("A"), b("B"), c("C");
  BnbRequest r;
  r.evaluators = {&a, &b, &c};
  try {
    prove(p, r, {}, test::pool<2>());
    ADD_FAILURE() << "three devices on two threads were accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(e.full_message().find("3 threads to feed"), std::string::npos) << e.full_message();
    EXPECT_NE(e.full_message().find("--threads 3"), std::string::npos) << e.full_message();
  }
  EXPECT_EQ(a.nodes() + b.nodes() + c.nodes(), 0u);
}

// Stopped at its first progress report with two devices, resumed with two: the uninterrupted dive's proof.
TEST(BnbDevices, AResumedRunEndsWithTheSameProof) {
  KS_REQUIRE_DATA(data("qaplib/nug14.dat"));
  const Problem p = qaplib_problem(data("qaplib/nug14.dat"));
  const BnbResult whole = prove(p, {}, {}, test::pool<2>());
  test::TempDir dir;
  CountingEvaluator a("A"), b("B");
  BnbRequest first;
  first.evaluators = {&a, &b};
  first.checkpoint = (dir.path() / "nug14.checkpoint").string();
  std::atomic<bool> cancel{false};
  BnbControl stop_soon;
  stop_soon.cancel = &cancel;
  stop_soon.progress = [&](const BnbProgress&) { cancel = true; };
  const BnbResult stopped = prove(p, first, stop_soon, test::pool<2>());
  ASSERT_FALSE(stopped.complete);
  ASSERT_TRUE(fs::exists(first.checkpoint));

  BnbRequest again;
  again.evaluators = {&a, &b};
  again.resume = first.checkpoint;
  const BnbResult resumed = prove(p, again, {}, test::pool<2>());
  EXPECT_TRUE(resumed.complete);
  EXPECT_EQ(resumed.sessions, 2);
  EXPECT_EQ(resumed.best().best.scaled, 1014);
  expect_same_proof(whole, resumed, "nug14 resumed");
}

// The second device fails: the proof ends with its error (the first device's thread stops too).
TEST(BnbDevices, ASecondFailingDeviceEndsTheProofWithItsError) {
  KS_REQUIRE_DATA(data("qaplib/nug15.dat"));
  CountingEvaluator a("device A"), failing("device B", 3);
  const Problem p = qaplib_problem(data("qaplib/nug15.dat"));
  BnbRequest r;
  r.evaluators = {&a, &failing};
  try {
    prove(p, r, {}, test::pool<2>());
    ADD_FAILURE() << "the second device's error was lost";
  } catch (const Error& e) {
    EXPECT_NE(e.full_message().find("device B was lost"), std::string::npos) << e.full_message();
  }
  EXPECT_EQ(failing.calls(), 3);
}

}  // namespace
}  // namespace ks::topo
