// How feeding threads share the last subtrees of a proof (topo/bnb/dive_pile.hpp, batch_dive.hpp): a thread
// with nothing left to take waits on the pile, a dive under way gives it part of its open nodes, and the two
// compute the bounds of exactly the nodes one dive alone computes, subtree by subtree; a subtree is reported
// finished once, when its last open node is evaluated, so a stopped dive has already reported the subtrees it
// ended. The expected per-subtree counts come from a dive that shares nothing, their sum from the CPU dive
// (prove() without evaluators), the other implementation.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <thread>
#include <vector>

#include "support/counting_evaluator.hpp"
#include "support/qaplib_optima.hpp"
#include "support/shared_data.hpp"
#include "support/shared_pool.hpp"
#include "topo/bnb/batch_dive.hpp"
#include "topo/bnb/bnb.hpp"
#include "topo/bnb/dive_pile.hpp"
#include "topo/bnb/proof_tree.hpp"

namespace ks::topo {
namespace {

using test::CountingEvaluator;
using test::data;

constexpr std::int64_t kNug12Optimum = 578;

// nug12's tree with its optimum as the incumbent (so every run prunes alike) and its open subtrees as one group.
struct Nug12 {
  Problem problem = test::qaplib_problem(data("qaplib/nug12.dat"));
  ProofTree tree{problem.traffic_scaled.data(), problem.cost_scaled.data(), problem.n, true};
  Incumbent incumbent{kNug12Optimum, std::vector<int>(std::size_t(problem.n), 0)};
  std::vector<std::uint32_t> open;

  Nug12() {
    tree.build_frontier(test::pool<1>());
    for (std::uint32_t s = 0; s < tree.subtrees(); ++s)
      if (tree.subtree_bound(s) < kNug12Optimum) open.push_back(s);
  }
  DivePiece whole_group() const {
    return frontier_piece(std::make_shared<DiveGroup>(open, 0), tree.order(), tree.frontier_depth(), prefixes());
  }
  std::vector<int> prefixes() const {
    std::vector<int> out;
    for (std::uint32_t s = 0; s < tree.subtrees(); ++s)
      out.insert(out.end(), tree.subtree_prefix(s), tree.subtree_prefix(s) + tree.frontier_depth());
    return out;
  }
};

// Per root of the group: how often it was reported finished and its nodes then.
struct Reports {
  std::vector<int> times;
  std::vector<std::uint64_t> nodes;
  std::mutex mutex;
  explicit Reports(std::size_t roots) : times(roots, 0), nodes(roots, 0) {}
  BatchDive::Finished callback() {
    return [this](DiveGroup& group, std::size_t root) {
      std::lock_guard lock(mutex);
      ++times[root];
      nodes[root] = group.nodes(root);
    };
  }
};

// Runs `first` (if any) and then whatever the pile gives, as a feeding thread does once the source is empty.
void feed(BatchDive& dive, DivePile& pile, Incumbent& incumbent, std::atomic<std::uint64_t>& live,
          std::optional<DivePiece> first) {
  const std::atomic<bool> stop{false}, failed{false};
  if (first) {
    DivePileWork work(pile, true);  // begun by the caller before any thread started
    ASSERT_TRUE(dive.explore(std::move(*first), incumbent, stop, live));
  }
  DivePiece piece;
  while (pile.wait(piece, stop, failed)) {
    DivePileWork work(pile, true);
    ASSERT_TRUE(dive.explore(std::move(piece), incumbent, stop, live));
  }
}

// Waits (at most 10 s) for a thread to wait on the pile before its first batch, so that it has work to give.
class GatedEvaluator final : public NodeEvaluator {
 public:
  explicit GatedEvaluator(const DivePile& pile) : pile_(pile) {}
  void load(const std::int64_t* t, const std::int64_t* c, int n) override { inner_.load(t, c, n); }
  void evaluate(const NodeBatch& b, NodeBatchResult& out) override {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!opened_ && pile_.waiting() == 0 && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    opened_ = true;
    inner_.evaluate(b, out);
  }
  std::size_t batch_nodes() const override { return inner_.batch_nodes(); }
  std::string device() const override { return "gated"; }

 private:
  const DivePile& pile_;
  CountingEvaluator inner_{"gated"};
  bool opened_ = false;
};

TEST(DivePile, AnIdleThreadTakesPartOfTheLastGroupAndEveryNodeIsBoundedOnce) {
  KS_REQUIRE_DATA(data("qaplib/nug12.dat"));
  Nug12 nug;
  const int n = nug.problem.n;
  ASSERT_GT(nug.open.size(), 100u);

  // Alone, sharing nothing.
  Reports alone(nug.open.size());
  CountingEvaluator lone("lone");
  lone.load(nug.tree.traffic(), nug.tree.costs(), n);
  std::atomic<std::uint64_t> lone_live{0};
  {
    BatchDive dive(lone, n, nug.tree.frontier_depth(), true, nullptr, alone.callback());
    const std::atomic<bool> stop{false};
    ASSERT_TRUE(dive.explore(nug.whole_group(), nug.incumbent, stop, lone_live));
  }
  for (std::size_t root = 0; root < nug.open.size(); ++root) EXPECT_EQ(alone.times[root], 1) << root;
  const std::uint64_t alone_total = std::accumulate(alone.nodes.begin(), alone.nodes.end(), std::uint64_t(0));
  EXPECT_EQ(alone_total, lone_live.load());
  // The CPU dive's proof counts the frontier's subtrees and the bounds below them: the same tree.
  const BnbResult dive = prove(nug.problem, {}, {}, test::pool<1>());
  ASSERT_TRUE(dive.best().proof.optimal);
  EXPECT_EQ(dive.best().proof.nodes, nug.tree.subtrees() + alone_total);

  // The group on thread A, thread B waiting from the start: A gives B parts of it.
  DivePile pile;
  Reports shared(nug.open.size());
  GatedEvaluator gated(pile);
  CountingEvaluator helper("helper");
  gated.load(nug.tree.traffic(), nug.tree.costs(), n);
  helper.load(nug.tree.traffic(), nug.tree.costs(), n);
  BatchDive a(gated, n, nug.tree.frontier_depth(), true, &pile, shared.callback());
  BatchDive b(helper, n, nug.tree.frontier_depth(), true, &pile, shared.callback());
  std::atomic<std::uint64_t> live{0};
  pile.begin();  // A's work is under way before B looks
  std::thread ta([&] { feed(a, pile, nug.incumbent, live, nug.whole_group()); });
  std::thread tb([&] { feed(b, pile, nug.incumbent, live, std::nullopt); });
  ta.join();
  tb.join();

  EXPECT_GT(pile.given(), 0u);
  EXPECT_GT(helper.nodes(), 0u) << "the waiting thread got no part";
  EXPECT_EQ(live.load(), alone_total);
  for (std::size_t root = 0; root < nug.open.size(); ++root) {
    EXPECT_EQ(shared.times[root], 1) << "root " << root << " reported finished " << shared.times[root] << " times";
    EXPECT_EQ(shared.nodes[root], alone.nodes[root]) << "root " << root;
  }
}

// A dive stopped part way has reported the subtrees it finished, not the one under way or those after.
TEST(DivePile, AStoppedDiveHasReportedTheSubtreesItEnded) {
  KS_REQUIRE_DATA(data("qaplib/nug12.dat"));
  Nug12 nug;
  const int n = nug.problem.n;
  Reports whole(nug.open.size()), part(nug.open.size());
  std::atomic<std::uint64_t> live{0};
  CountingEvaluator first("first"), second("second");
  first.load(nug.tree.traffic(), nug.tree.costs(), n);
  second.load(nug.tree.traffic(), nug.tree.costs(), n);
  const std::atomic<bool> never{false};
  BatchDive all(first, n, nug.tree.frontier_depth(), true, nullptr, whole.callback());
  ASSERT_TRUE(all.explore(nug.whole_group(), nug.incumbent, never, live));
  const int batches = first.calls();
  ASSERT_GT(batches, 10);

  // Stopped after half the batches.
  std::atomic<bool> stop{false};
  BatchDive::Finished count = part.callback();
  BatchDive stopped(second, n, nug.tree.frontier_depth(), true, nullptr, [&](DiveGroup& g, std::size_t root) {
    count(g, root);
    if (second.calls() >= batches / 2) stop = true;
  });
  EXPECT_FALSE(stopped.explore(nug.whole_group(), nug.incumbent, stop, live));
  std::size_t reported = 0;
  for (std::size_t root = 0; root < nug.open.size(); ++root) {
    EXPECT_LE(part.times[root], 1) << root;
    if (part.times[root] == 0) continue;
    ++reported;
    EXPECT_EQ(part.nodes[root], whole.nodes[root]) << "root " << root;
  }
  EXPECT_GT(reported, 0u);
  EXPECT_LT(reported, nug.open.size());
}

}  // namespace
}  // namespace ks::topo
