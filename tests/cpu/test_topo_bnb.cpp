// Branch and bound over placements (topo/bnb): the Hungarian algorithm and the Gilmore-Lawler bound against
// brute force, proofs equal to QAPLIB's published optima (every instance with n <= 12 in ../shared/data/qaplib)
// and to the exhaustive sweep (timestamps x configurations), checkpoint and resume, Cancel, the time limit,
// and bad requests. The expected values come from brute force, the sweep or QAPLIB, never from the solver.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numeric>
#include <random>

#include "core/error.hpp"
#include "support/shared_data.hpp"
#include "support/qaplib_optima.hpp"
#include "support/shared_pool.hpp"
#include "support/test_support.hpp"
#include "support/topo_instances.hpp"
#include "topo/bnb/bnb.hpp"
#include "topo/bnb/gl_bound.hpp"
#include "topo/bnb/hungarian.hpp"
#include "topo/inputs/qaplib.hpp"

namespace ks::topo {
namespace {

using test::data;
using test::pool;

namespace fs = std::filesystem;

using test::qaplib_problem;

// A poor incumbent (one tabu iteration), so that the tree itself must find the optimum.
BnbRequest weak_start() {
  BnbRequest r;
  r.search_iterations = 1;
  return r;
}

std::vector<std::int64_t> random_matrix(int rows, int cols, std::mt19937_64& rng, int lo, int hi) {
  std::uniform_int_distribution<int> value(lo, hi);
  std::vector<std::int64_t> m(std::size_t(rows) * std::size_t(cols));
  for (auto& x : m) x = value(rng);
  return m;
}

TEST(BnbBound, HungarianEqualsBruteForceAndLeavesFeasibleDuals) {
  std::mt19937_64 rng(7);
  for (int m = 1; m <= 7; ++m)
    for (int trial = 0; trial < 20; ++trial) {
      const auto cost = random_matrix(m, m, rng, trial % 2 ? -50 : 0, 100);
      std::vector<int> perm(static_cast<std::size_t>(m));
      std::iota(perm.begin(), perm.end(), 0);
      std::int64_t best = INT64_MAX;
      do {
        std::int64_t s = 0;
        for (int r = 0; r < m; ++r) s += cost[std::size_t(r * m + perm[std::size_t(r)])];
        best = std::min(best, s);
      } while (std::next_permutation(perm.begin(), perm.end()));
      std::vector<std::int64_t> scratch(static_cast<std::size_t>(lap_scratch_size(m))), u(static_cast<std::size_t>(m)), v(static_cast<std::size_t>(m));
      EXPECT_EQ(lap_solve(cost.data(), m, scratch.data(), u.data(), v.data()), best) << "m " << m;
      std::int64_t dual = 0;
      for (int k = 0; k < m; ++k) dual += u[std::size_t(k)] + v[std::size_t(k)];
      EXPECT_EQ(dual, best);
      for (int r = 0; r < m; ++r)
        for (int c = 0; c < m; ++c) EXPECT_GE(cost[std::size_t(r * m + c)] - u[std::size_t(r)] - v[std::size_t(c)], 0);
    }
}

// Every completion of a node costs at least its bound, and at least the bound plus the reduced cost of its own
// pairs; with one free facility the bound is the cost. Asymmetric matrices with diagonals and negative traffic.
TEST(BnbBound, GilmoreLawlerBoundsEveryCompletionFromBelow) {
  std::mt19937_64 rng(11);
  const int n = 6;
  for (int trial = 0; trial < 12; ++trial) {
    const auto T = random_matrix(n, n, rng, trial % 3 == 0 ? -5 : 0, 9);
    const auto D = random_matrix(n, n, rng, 0, 7);
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<int> loc(n);  // a complete placement by branching position: loc[k] = location of order[k]
    std::iota(loc.begin(), loc.end(), 0);
    std::vector<std::int64_t> scratch(static_cast<std::size_t>(gl_full_scratch_size(n))), reduced(static_cast<std::size_t>(n * n));
    do {
      std::int64_t cost = 0;  // from the definition, by facility
      for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
          cost += T[std::size_t(order[a] * n + order[b])] * D[std::size_t(loc[a] * n + loc[b])];
      for (int depth = 0; depth < n; ++depth) {
        const std::int64_t bound = gl_bound(n, T.data(), D.data(), order.data(), loc.data(), depth, scratch.data(),
                                            reduced.data());
        if (depth == n - 1) {
          EXPECT_EQ(bound, cost);
          continue;
        }
        ASSERT_LE(bound, cost) << "depth " << depth;
        // The next facility (row 0) at its location: its column among the free locations, ascending.
        int column = 0;
        for (int l = 0; l < loc[depth]; ++l)
          column += std::find(loc.begin(), loc.begin() + depth, l) == loc.begin() + depth;
        ASSERT_LE(bound + reduced[std::size_t(column)], cost) << "depth " << depth;
      }
    } while (trial < 2 && std::next_permutation(loc.begin(), loc.end()));
  }
}

// The dive updates the linear part from the parent's; it must equal the child's computed from scratch.
TEST(BnbBound, TheChildsLinearPartFromItsParentsEqualsItsOwn) {
  std::mt19937_64 rng(5);
  const int n = 8;
  for (int trial = 0; trial < 30; ++trial) {
    const auto T = random_matrix(n, n, rng, -3, 9), D = random_matrix(n, n, rng, 0, 6);
    std::vector<int> order(static_cast<std::size_t>(n)), locs(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::iota(locs.begin(), locs.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    std::shuffle(locs.begin(), locs.end(), rng);
    const int depth = trial % (n - 1), m = n - depth;
    const int row = int(rng() % std::uint64_t(m)), column = int(rng() % std::uint64_t(m));
    std::vector<std::int64_t> taken(8), free_loc(8), lin(64), child_lin(64), child_free(8), expected(64);
    gl_free_locations(n, locs.data(), depth, taken.data(), free_loc.data());
    gl_linear(n, T.data(), D.data(), order.data(), locs.data(), depth, free_loc.data(), lin.data());
    gl_child_linear(n, T.data(), D.data(), order.data(), depth, free_loc.data(), lin.data(), row, column,
                    child_lin.data());
    std::vector<int> child_order = order, child_locs = locs;
    std::swap(child_order[std::size_t(depth)], child_order[std::size_t(depth + row)]);
    child_locs[std::size_t(depth)] = int(free_loc[std::size_t(column)]);
    gl_free_locations(n, child_locs.data(), depth + 1, taken.data(), child_free.data());
    gl_linear(n, T.data(), D.data(), child_order.data(), child_locs.data(), depth + 1, child_free.data(),
              expected.data());
    for (int k = 0; k < (m - 1) * (m - 1); ++k)
      ASSERT_EQ(child_lin[std::size_t(k)], expected[std::size_t(k)]) << "trial " << trial << " entry " << k;
  }
}

TEST(BnbBound, TheBatchGivesEachNodesBound) {
  std::mt19937_64 rng(3);
  const int n = 9, depth = 3;
  const auto T = random_matrix(n, n, rng, 0, 20), D = random_matrix(n, n, rng, 0, 5);
  const std::vector<int> order = branching_order(T.data(), n);
  std::vector<int> locs;
  for (int k = 0; k < 40; ++k) {
    std::vector<int> l(n);
    std::iota(l.begin(), l.end(), 0);
    std::shuffle(l.begin(), l.end(), rng);
    locs.insert(locs.end(), l.begin(), l.begin() + depth);
  }
  const auto batch = gl_bounds(T.data(), D.data(), n, order, locs, depth, pool());
  ASSERT_EQ(batch.size(), 40u);
  std::vector<std::int64_t> scratch(static_cast<std::size_t>(gl_full_scratch_size(n)));
  for (int k = 0; k < 40; ++k)
    EXPECT_EQ(batch[std::size_t(k)],
              gl_bound(n, T.data(), D.data(), order.data(), locs.data() + k * depth, depth, scratch.data(), nullptr));
  // An order per node (as the dive's branching makes them).
  std::vector<int> orders;
  for (int k = 0; k < 40; ++k) {
    std::vector<int> o = order;
    std::shuffle(o.begin(), o.end(), rng);
    orders.insert(orders.end(), o.begin(), o.end());
  }
  const auto own = gl_bounds(T.data(), D.data(), n, orders, locs, depth, pool());
  ASSERT_EQ(own.size(), 40u);
  for (int k = 0; k < 40; ++k)
    EXPECT_EQ(own[std::size_t(k)], gl_bound(n, T.data(), D.data(), orders.data() + k * n, locs.data() + k * depth,
                                            depth, scratch.data(), nullptr));
}

TEST(BnbBound, BranchingOrderPutsTheLargestTrafficFirst) {
  // Node 2 sends and receives the most, node 0 the least; nodes 1 and 3 tie (kept in number order).
  const std::vector<std::int64_t> T = {0, 1, 0, 0,  //
                                       1, 0, 5, 1,  //
                                       0, 5, 99, 9,  //
                                       0, 1, 3, 0};
  EXPECT_EQ(branching_order(T.data(), 4), (std::vector<int>{2, 1, 3, 0}));
}

TEST(Bnb, ProvesThePublishedOptimumOfEverySmallQaplibInstance) {
  KS_REQUIRE_DATA(data("qaplib/nug12.dat"));
  for (const auto& [q, optimum] : test::small_qaplib_instances()) {
    const Problem p = make_problem(traffic_from_qaplib(q), {configuration_from_qaplib(q)});
    const BnbResult r = prove(p, weak_start(), {}, pool());
    const ConfigurationProof& c = r.best();
    EXPECT_TRUE(c.proof.optimal) << q.name;
    EXPECT_EQ(c.best.scaled, optimum) << q.name;
    EXPECT_EQ(c.proof.best_bound.scaled, optimum) << q.name;
    EXPECT_LE(c.proof.root_bound.scaled, optimum) << q.name;
    EXPECT_EQ(placement_cost(p, 0, 0, c.placement).scaled, optimum) << q.name;
    EXPECT_GT(c.proof.nodes, 0u);
    EXPECT_TRUE(r.complete);
    std::printf("%s: %lld proved in %.3f s, %llu nodes, root bound %lld\n", q.name.c_str(),
                static_cast<long long>(c.best.scaled), c.proof.seconds,
                static_cast<unsigned long long>(c.proof.nodes), static_cast<long long>(c.proof.root_bound.scaled));
  }
}

// Several timestamps and configurations: each configuration's proof is the exhaustive sweep's optimum of the
// summed traffic (n = 9, asymmetric path costs); every slice cost is the sweep's cost of that placement.
TEST(Bnb, TimestampsAndConfigurationsMatchTheExhaustiveSweep) {
  const Problem p = make_problem(test::random_traffic(9, 3, 41, true, 50),
                                 {test::random_costs(9, 1), test::random_costs(9, 2), test::random_costs(9, 3, true, true)});
  const BnbResult r = prove(p, weak_start(), {}, pool());
  ASSERT_EQ(r.configurations.size(), 3u);
  EXPECT_EQ(r.slice, 3);
  EvalRequest all;
  all.histogram = false;
  const EvalResult sweep = evaluate(p, all, {}, pool(), nullptr);
  int best_configuration = 0;
  for (int c = 0; c < 3; ++c) {
    const ConfigurationProof& cp = r.configurations[std::size_t(c)];
    EXPECT_TRUE(cp.proof.optimal);
    EXPECT_EQ(cp.best.scaled, sweep.at(3, c).min.scaled) << "configuration " << c;
    EXPECT_EQ(cp.proof.best_bound.scaled, sweep.at(3, c).min.scaled);
    for (int s = 0; s < 4; ++s)
      EXPECT_EQ(cp.slice_costs[std::size_t(s)].scaled, placement_cost(p, s, c, cp.placement).scaled);
    if (sweep.at(3, c).min.scaled < sweep.at(3, best_configuration).min.scaled) best_configuration = c;
  }
  EXPECT_EQ(r.best_configuration, best_configuration);
  EXPECT_TRUE(r.overall().optimal);
  EXPECT_EQ(best_over_time(as_eval_result(r))->cost.scaled, best_over_time(sweep)->cost.scaled);
}

TEST(Bnb, WithoutReducedCostPruningTheSameOptimum) {
  const Problem p = make_problem(test::random_traffic(10, 1, 5, true, 30), {test::random_costs(10, 9)});
  BnbRequest with = weak_start(), without = weak_start();
  without.reduced_cost_pruning = false;
  const BnbResult a = prove(p, with, {}, pool()), b = prove(p, without, {}, pool());
  EXPECT_TRUE(a.best().proof.optimal);
  EXPECT_TRUE(b.best().proof.optimal);
  EXPECT_EQ(a.best().best.scaled, b.best().best.scaled);
  EXPECT_LT(a.best().proof.nodes, b.best().proof.nodes);  // the pruned children are never bounded
}

// A run stopped at its first progress report (as a kill would, after a checkpoint) and resumed from the
// checkpoint ends with the proof of a run that never stopped: same cost, bounds and nodes.
TEST(Bnb, AResumedRunEndsWithTheSameProof) {
  KS_REQUIRE_DATA(data("qaplib/nug15.dat"));
  const Problem p = qaplib_problem(data("qaplib/nug15.dat"));
  const BnbResult whole = prove(p, {}, {}, pool());
  ASSERT_TRUE(whole.best().proof.optimal);

  test::TempDir dir;
  BnbRequest first;
  first.checkpoint = (dir.path() / "nug15.checkpoint").string();
  std::atomic<bool> cancel{false};
  BnbControl stop_soon;
  stop_soon.cancel = &cancel;
  stop_soon.progress = [&](const BnbProgress&) { cancel = true; };
  const BnbResult stopped = prove(p, first, stop_soon, pool());
  ASSERT_FALSE(stopped.complete);
  EXPECT_FALSE(stopped.best().proof.optimal);
  EXPECT_EQ(stopped.stopped_by, "cancel");
  EXPECT_EQ(stopped.checkpoint, first.checkpoint);
  ASSERT_TRUE(fs::exists(first.checkpoint));

  BnbRequest again;
  again.resume = first.checkpoint;
  const BnbResult resumed = prove(p, again, {}, pool());
  EXPECT_TRUE(resumed.complete);
  EXPECT_EQ(resumed.sessions, 2);
  const BnbProof& a = whole.best().proof;
  const BnbProof& b = resumed.best().proof;
  EXPECT_TRUE(b.optimal);
  EXPECT_EQ(resumed.best().best.scaled, 1150);
  EXPECT_EQ(b.root_bound.scaled, a.root_bound.scaled);
  EXPECT_EQ(b.best_bound.scaled, a.best_bound.scaled);
  EXPECT_EQ(b.nodes, a.nodes);  // the subtrees cut short are explored again, counted once
  // The gap curve (and the progress) ends at the proof's count, in one session or two.
  EXPECT_EQ(whole.best().curve.back().nodes, a.nodes);
  EXPECT_EQ(resumed.best().curve.back().nodes, b.nodes);
}

TEST(Bnb, CancelKeepsTheIncumbentAndTheGap) {
  KS_REQUIRE_DATA(data("qaplib/nug15.dat"));
  const Problem p = qaplib_problem(data("qaplib/nug15.dat"));
  std::atomic<bool> cancel{false};
  BnbControl ctl;
  ctl.cancel = &cancel;
  int reports = 0;
  ctl.progress = [&](const BnbProgress& pr) {
    EXPECT_LE(pr.bound.scaled, pr.incumbent.scaled);
    EXPECT_LE(pr.open, pr.subtrees);
    if (++reports == 3) cancel = true;
  };
  const BnbResult r = prove(p, {}, ctl, pool());
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.stopped_by, "cancel");
  const ConfigurationProof& c = r.best();
  EXPECT_FALSE(c.proof.optimal);
  EXPECT_EQ(c.best.scaled, placement_cost(p, 0, 0, c.placement).scaled);
  EXPECT_GE(c.best.scaled, 1150);  // nug15's optimum
  EXPECT_LE(c.proof.best_bound.scaled, 1150);
  EXPECT_GE(c.proof.best_bound.scaled, c.proof.root_bound.scaled);
  EXPECT_FALSE(c.curve.empty());
  EXPECT_FALSE(r.overall().optimal);
}

TEST(Bnb, ATimeLimitStopsWithTheGap) {
  const Problem p = make_problem(test::random_traffic(30, 1, 8, true, 100), {test::random_costs(30, 4)});
  BnbRequest r;
  r.time_s = 0.5;
  r.search_iterations = 200;
  const BnbResult res = prove(p, r, {}, pool());
  EXPECT_FALSE(res.complete);
  EXPECT_EQ(res.stopped_by, "time");
  EXPECT_LT(res.seconds, 10.0);
  EXPECT_LT(res.best().proof.best_bound.scaled, res.best().best.scaled);
}

TEST(Bnb, BadRequests) {
  const auto usage = [](const std::function<void()>& f, const std::string& words) {
    const std::string message = test::usage_error(f);
    EXPECT_NE(message.find(words), std::string::npos) << message;
  };
  const Problem real = make_problem(test::random_traffic(6, 1, 1, false), {test::random_costs(6, 1, false)});
  usage([&] { prove(real, {}, {}, pool()); }, "exact costs only");
  const Problem big = make_problem(test::random_traffic(25, 1, 1, true), {test::random_costs(25, 1)});
  usage([&] { prove(big, {}, {}, pool()); }, "no time limit was given");
  const Problem huge = make_problem(test::random_traffic(65, 1, 1, true), {test::random_costs(65, 1)});
  BnbRequest timed;
  timed.time_s = 1;
  usage([&] { prove(huge, timed, {}, pool()); }, "at most 64");
  // What the app asks before offering a proof: the same refusals, as a yes or no.
  EXPECT_FALSE(provable_without_time_limit(real));
  EXPECT_FALSE(provable_without_time_limit(big));
  EXPECT_FALSE(provable_without_time_limit(huge));
  const Problem largest = make_problem(test::random_traffic(24, 1, 1, true), {test::random_costs(24, 1)});
  EXPECT_TRUE(provable_without_time_limit(largest));

  // A checkpoint of another problem is refused by name; a damaged one as corrupt (Io).
  test::TempDir dir;
  const Problem a = make_problem(test::random_traffic(7, 1, 1, true), {test::random_costs(7, 1)});
  const Problem b = make_problem(test::random_traffic(7, 1, 2, true), {test::random_costs(7, 1)});
  BnbRequest write;
  write.checkpoint = (dir.path() / "a.checkpoint").string();
  ASSERT_TRUE(prove(a, write, {}, pool()).complete);
  BnbRequest resume;
  resume.resume = write.checkpoint;
  usage([&] { prove(b, resume, {}, pool()); }, "belongs to another sweep");
  std::string text;
  {
    std::ifstream in(write.checkpoint);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  text[text.size() / 2] = text[text.size() / 2] == '1' ? '2' : '1';
  std::ofstream(write.checkpoint) << text;
  try {
    prove(a, resume, {}, pool());
    ADD_FAILURE() << "a damaged checkpoint was resumed";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io) << e.what();
  }
}

}  // namespace
}  // namespace ks::topo
