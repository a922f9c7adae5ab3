// The batch dive of branch and bound (topo/bnb/batch_dive.hpp) with the CPU implementation of the node batch
// (node_batch.hpp), the interface the GPU implements: it explores the same tree as the CPU dive (the same
// nodes, counted, to the same optimum) alone and beside diving threads, proves every QAPLIB instance with
// n <= 12 equal to its published optimum, and a run stopped and resumed with it ends with the CPU dive's proof.
// The expected optima come from QAPLIB or the exhaustive sweep; the node counts from the CPU dive, which is
// the other implementation.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "support/qaplib_optima.hpp"
#include "support/shared_data.hpp"
#include "support/shared_pool.hpp"
#include "support/test_support.hpp"
#include "support/topo_instances.hpp"
#include "topo/bnb/bnb.hpp"
#include "topo/bnb/node_batch.hpp"
#include "topo/inputs/qaplib.hpp"

namespace ks::topo {
namespace {

using test::data;
using test::qaplib_problem;
namespace fs = std::filesystem;

// On one thread (test::pool<1>) a run with an evaluator only feeds the batches; on two, one feeds them, one dives.
BnbRequest with_batches(NodeEvaluator& evaluator) {
  BnbRequest r;
  r.evaluators = {&evaluator};
  return r;
}

void expect_same_proof(const BnbResult& dive, const BnbResult& batch, const std::string& name) {
  const ConfigurationProof& a = dive.best();
  const ConfigurationProof& b = batch.best();
  EXPECT_TRUE(a.proof.optimal) << name;
  EXPECT_TRUE(b.proof.optimal) << name;
  EXPECT_EQ(b.best.scaled, a.best.scaled) << name;
  EXPECT_EQ(b.proof.root_bound.scaled, a.proof.root_bound.scaled) << name;
  EXPECT_EQ(b.proof.best_bound.scaled, a.proof.best_bound.scaled) << name;
  EXPECT_EQ(b.proof.nodes, a.proof.nodes) << name;
}

TEST(BnbBatch, ProvesThePublishedOptimumOfEverySmallQaplibInstanceWithTheDivesNodes) {
  KS_REQUIRE_DATA(data("qaplib/nug12.dat"));
  CpuNodeEvaluator batches(64);
  for (const auto& [q, optimum] : test::small_qaplib_instances()) {
    const Problem p = make_problem(traffic_from_qaplib(q), {configuration_from_qaplib(q)});
    const BnbResult dive = prove(p, {}, {}, test::pool<1>());
    const BnbResult batch = prove(p, with_batches(batches), {}, test::pool<1>());
    EXPECT_EQ(batch.best().best.scaled, optimum) << q.name;
    EXPECT_EQ(placement_cost(p, 0, 0, batch.best().placement).scaled, optimum) << q.name;
    EXPECT_NE(batch.device.find("CPU batch"), std::string::npos) << batch.device;
    expect_same_proof(dive, batch, q.name);
  }
}

// Odd sizes, several configurations and timestamps, batches of one node and of many, and without reduced-cost
// pruning (the next facility in order, every child bounded).
TEST(BnbBatch, ExploresTheDivesTreeOnOddSizes) {
  for (int n : {5, 7, 9, 10}) {
    const Problem p = make_problem(test::random_traffic(n, 2, std::uint32_t(n), true, 40),
                                   {test::random_costs(n, 3), test::random_costs(n, 4, true, true)});
    EvalRequest all;
    all.histogram = false;
    const EvalResult sweep = evaluate(p, all, {}, test::pool<1>(), nullptr);
    for (bool pruning : {true, false})
      for (std::size_t batch_nodes : {std::size_t(1), std::size_t(1000)}) {
        CpuNodeEvaluator batches(batch_nodes);
        BnbRequest plain, batched = with_batches(batches);
        plain.reduced_cost_pruning = batched.reduced_cost_pruning = pruning;
        const BnbResult dive = prove(p, plain, {}, test::pool<1>());
        const BnbResult batch = prove(p, batched, {}, test::pool<1>());
        ASSERT_EQ(batch.configurations.size(), 2u);
        for (int c = 0; c < 2; ++c) {
          const std::string name = "n " + std::to_string(n) + " configuration " + std::to_string(c) +
                                   (pruning ? "" : " unpruned") + " batch " + std::to_string(batch_nodes);
          EXPECT_EQ(batch.configurations[std::size_t(c)].best.scaled, sweep.at(p.slices - 1, c).min.scaled) << name;
          EXPECT_EQ(batch.configurations[std::size_t(c)].proof.nodes, dive.configurations[std::size_t(c)].proof.nodes)
              << name;
          EXPECT_TRUE(batch.configurations[std::size_t(c)].proof.optimal) << name;
        }
      }
  }
}

// One thread feeds the batches while another dives: the subtrees are shared out, the tree is the same.
TEST(BnbBatch, BesideADivingThreadTheSameTree) {
  KS_REQUIRE_DATA(data("qaplib/nug14.dat"));
  const Problem p = qaplib_problem(data("qaplib/nug14.dat"));
  CpuNodeEvaluator batches(256);
  const BnbResult dive = prove(p, {}, {}, test::pool<2>());
  const BnbResult mixed = prove(p, with_batches(batches), {}, test::pool<2>());
  EXPECT_EQ(mixed.best().best.scaled, 1014);
  expect_same_proof(dive, mixed, "nug14");
}

// Stopped at its first progress report and resumed from the checkpoint, with batches both times: the proof of
// the CPU dive that never stopped (the subtrees of a group cut short are explored again, counted once).
TEST(BnbBatch, AResumedRunEndsWithTheDivesProof) {
  KS_REQUIRE_DATA(data("qaplib/nug14.dat"));
  const Problem p = qaplib_problem(data("qaplib/nug14.dat"));
  const BnbResult whole = prove(p, {}, {}, test::pool<2>());
  CpuNodeEvaluator batches(256);
  test::TempDir dir;
  BnbRequest first = with_batches(batches);
  first.checkpoint = (dir.path() / "nug14.checkpoint").string();
  std::atomic<bool> cancel{false};
  BnbControl stop_soon;
  stop_soon.cancel = &cancel;
  stop_soon.progress = [&](const BnbProgress&) { cancel = true; };
  const BnbResult stopped = prove(p, first, stop_soon, test::pool<1>());
  ASSERT_FALSE(stopped.complete);
  EXPECT_EQ(stopped.stopped_by, "cancel");
  ASSERT_TRUE(fs::exists(first.checkpoint));

  BnbRequest again = with_batches(batches);
  again.resume = first.checkpoint;
  const BnbResult resumed = prove(p, again, {}, test::pool<1>());
  EXPECT_TRUE(resumed.complete);
  EXPECT_EQ(resumed.sessions, 2);
  EXPECT_EQ(resumed.best().best.scaled, 1014);
  expect_same_proof(whole, resumed, "nug14 resumed");
}

// An evaluator that fails (as a GPU can: out of memory, a lost device) ends the proof with its error, and the
// diving threads stop with it rather than finish the tree first.
TEST(BnbBatch, AFailingEvaluatorEndsTheProofWithItsError) {
  KS_REQUIRE_DATA(data("qaplib/nug15.dat"));
  struct Failing final : NodeEvaluator {
    CpuNodeEvaluator inner{64};
    int calls = 0;
    void load(const std::int64_t* t, const std::int64_t* c, int n) override { inner.load(t, c, n); }
    void evaluate(const NodeBatch& b, NodeBatchResult& out) override {
      if (++calls == 3) throw Error(ErrorKind::Device, "the device was lost");
      inner.evaluate(b, out);
    }
    std::size_t batch_nodes() const override { return 64; }
    std::string device() const override { return "failing"; }
  } failing;
  const Problem p = qaplib_problem(data("qaplib/nug15.dat"));
  std::uint64_t nodes_seen = 0;
  BnbControl watch;
  watch.progress = [&](const BnbProgress& pr) { nodes_seen = pr.nodes; };
  try {
    prove(p, with_batches(failing), watch, test::pool<2>());
    ADD_FAILURE() << "the evaluator's error was lost";
  } catch (const Error& e) {
    EXPECT_NE(e.full_message().find("the device was lost"), std::string::npos) << e.full_message();
  }
  EXPECT_EQ(failing.calls, 3);
  // nug15's tree has 442 203 nodes (test_topo_bnb.cpp): the diver stopped long before its end.
  EXPECT_LT(nodes_seen, 442203u / 2);
}

}  // namespace
}  // namespace ks::topo
