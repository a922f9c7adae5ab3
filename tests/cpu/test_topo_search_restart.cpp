// Where the tabu search's stalled chains restart (issue 28, item 4), on QAPLIB's tai25a through trace_chains:
// with restart_from = own (the default) every chain starts again near its own best (iterated tabu search), with
// elites near the best placements of all chains, which are not their own, with cross from a crossover of the
// two (crossover() itself on random placements), with record near the chain's best since its start; and how
// hard a restart perturbs (breakout).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "support/qaplib_optima.hpp"
#include "support/shared_data.hpp"
#include "support/shared_pool.hpp"
#include "topo/search/search.hpp"
#include "topo/search/search_plan.hpp"

namespace ks::topo {
namespace {

using test::data;
using test::pool;

int positions_apart(const std::vector<int>& a, const std::vector<int>& b) {
  int differ = 0;
  for (std::size_t i = 0; i < a.size(); ++i) differ += a[i] != b[i] ? 1 : 0;
  return differ;
}

// Chains step 200 moves between the host's looks and stall after 0.01 x 25^2 = 6 moves without a better best,
// so at each look nearly every chain restarts: its placement is then its restart's start, a few swaps away
// from where it restarted. A chain that found its best in its last 6 moves is not restarted and is at most 6
// moves (12 positions) from its best.
SearchRequest restarting(RestartFrom from) {
  SearchRequest r;
  r.params.chains = 12;
  r.params.sync = 200;
  r.params.tabu_stall = 0.01;
  r.params.perturb = 0.12;  // 3 swaps: at most 6 positions
  r.params.restart_from = from;
  r.seed = 11;
  r.iterations = 1;  // unused by trace_chains
  return r;
}

// How many chain snapshots, from the 9th interval on, are more than 12 positions from their chain's best. The
// first intervals are 1, 2, 4, ... moves (no stall yet); from the 9th on (256 > 200: the sync) each is 200 moves.
struct FarFromBest {
  int far = 0, looked = 0;
};
FarFromBest far_from_best(const Problem& p, RestartFrom from) {
  const auto trace = trace_chains(p, restarting(from), 10, pool(), nullptr);
  FarFromBest f;
  for (std::size_t i = 8; i < trace.size(); ++i)
    for (const ChainSnapshot& chain : trace[i]) {
      ++f.looked;
      if (positions_apart(chain.placement, chain.best_placement) > 12) ++f.far;
    }
  return f;
}

// A search with frequent restarts gives the same best, restarts and trace on one thread as on the shared pool.
void expect_runs_repeat_whatever_the_threads(const Problem& p, RestartFrom from, double perturb_max = 0) {
  SearchRequest r = restarting(from);
  r.params.tabu_stall = 1;
  r.params.perturb_max = perturb_max;
  r.iterations = 3000;
  ThreadPool one(1);
  const SearchResult a = search(p, r, {}, pool(), nullptr);
  const SearchResult b = search(p, r, {}, one, nullptr);
  EXPECT_GT(a.best().restarts, 0u);
  EXPECT_EQ(a.best().restarts, b.best().restarts);
  EXPECT_EQ(a.best().placement, b.best().placement);
  EXPECT_EQ(trace_chains(p, r, 10, pool(), nullptr), trace_chains(p, r, 10, one, nullptr));
}

TEST(SearchRestart, OwnRestartsEveryChainNearItsOwnBest) {
  KS_REQUIRE_DATA(data("qaplib-large/tai25a.dat"));
  const Problem p = test::qaplib_problem(data("qaplib-large/tai25a.dat"));
  const FarFromBest own = far_from_best(p, RestartFrom::Own);
  const FarFromBest elites = far_from_best(p, RestartFrom::Elites);
  EXPECT_EQ(own.looked, 24);
  EXPECT_EQ(own.far, 0) << "a chain restarted from own best is at most 6 positions from it";
  // From the elites, most chains start far from their own best (the elites are few and not theirs).
  EXPECT_GT(elites.far, elites.looked / 2);
}

TEST(SearchRestart, OwnRunsRepeatWhateverTheThreads) {
  KS_REQUIRE_DATA(data("qaplib-large/tai25a.dat"));
  expect_runs_repeat_whatever_the_threads(test::qaplib_problem(data("qaplib-large/tai25a.dat")), RestartFrom::Own);
}

std::vector<std::uint16_t> shuffled(int n, std::uint64_t seed) {
  SplitMix64 rng(seed);
  return random_start(rng, n);
}

TEST(SearchRestart, ACrossoverKeepsWhatBothShareAndTakesAboutHalfOfTheRestFromTheOther) {
  for (const int n : {1, 2, 7, 200}) {
    std::vector<std::uint16_t> own = shuffled(n, 5), other = own;
    // other: own with a third of its positions shuffled among themselves, so they share about two thirds.
    std::vector<std::size_t> moved;
    for (std::size_t i = 0; i < own.size(); i += 3) moved.push_back(i);
    SplitMix64 rng(9);
    for (std::size_t k = moved.size(); k > 1; --k)
      std::swap(other[moved[k - 1]], other[moved[rng.below(std::uint32_t(k))]]);
    SplitMix64 coin(17);
    const std::vector<std::uint16_t> child = crossover(own, other, coin);
    std::vector<std::uint16_t> sorted = child;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::uint16_t> identity(std::size_t(n), 0);
    std::iota(identity.begin(), identity.end(), std::uint16_t{0});
    ASSERT_EQ(sorted, identity) << "n = " << n << ": not a placement";
    int differ = 0, taken = 0;
    for (std::size_t i = 0; i < own.size(); ++i) {
      if (own[i] == other[i]) {
        EXPECT_EQ(child[i], own[i]) << "n = " << n << ": an assignment both share was undone at " << i;
      } else {
        ++differ;
        taken += child[i] == other[i] ? 1 : 0;
      }
    }
    if (n == 200) {
      ASSERT_GT(differ, 50);
      // Each differing position takes other's node by a fair coin (and a swap can place another of other's
      // nodes on the way): about half (28 to 34 of 65 for five coins' seeds), neither all nor none.
      EXPECT_GT(taken, differ / 4);
      EXPECT_LT(taken, differ * 3 / 4);
    }
  }
}

TEST(SearchRestart, CrossRestartsLeaveTheirOwnBestAndRepeatWhateverTheThreads) {
  KS_REQUIRE_DATA(data("qaplib-large/tai25a.dat"));
  const Problem p = test::qaplib_problem(data("qaplib-large/tai25a.dat"));
  const FarFromBest cross = far_from_best(p, RestartFrom::Cross);
  EXPECT_EQ(cross.looked, 24);
  // Half of where the own best and the elite differ (most of the 25 positions) moves towards the elite.
  EXPECT_GT(cross.far, 0) << "a crossover with the elites starts away from the chain's own best";
  expect_runs_repeat_whatever_the_threads(p, RestartFrom::Cross);
}

TEST(SearchRestart, BreakoutAddsPerturbSwapsForEachFailedRestartUpToPerturbMax) {
  SearchParams q;
  q.perturb = 0.1;
  for (const int failed : {0, 1, 5, 1000}) EXPECT_EQ(restart_swap_count(q, 80, failed), 8) << "off: always 8";
  q.perturb_max = 0.5;
  EXPECT_EQ(restart_swap_count(q, 80, 0), 8);
  EXPECT_EQ(restart_swap_count(q, 80, 1), 16);
  EXPECT_EQ(restart_swap_count(q, 80, 3), 32);
  EXPECT_EQ(restart_swap_count(q, 80, 4), 40) << "0.5 x 80";
  EXPECT_EQ(restart_swap_count(q, 80, 1000000000), 40) << "capped, without overflow";
  // n = 5: 0.1 x 5 rounds to 1 swap a step, 0.5 x 5 to 3 at most.
  EXPECT_EQ(restart_swap_count(q, 5, 0), 1);
  EXPECT_EQ(restart_swap_count(q, 5, 1), 2);
  EXPECT_EQ(restart_swap_count(q, 5, 7), 3);
}

TEST(SearchRestart, BreakoutChangesTheSearchAndRepeatsWhateverTheThreads) {
  KS_REQUIRE_DATA(data("qaplib-large/tai25a.dat"));
  const Problem p = test::qaplib_problem(data("qaplib-large/tai25a.dat"));
  expect_runs_repeat_whatever_the_threads(p, RestartFrom::Own, 0.6);
  // Chains that restart at nearly every look fail to beat their record most of the time, so breakout perturbs
  // them harder and their trajectories part from the fixed perturbation's.
  SearchRequest fixed = restarting(RestartFrom::Own), breakout = fixed;
  breakout.params.perturb_max = 0.6;
  EXPECT_NE(trace_chains(p, fixed, 10, pool(), nullptr), trace_chains(p, breakout, 10, pool(), nullptr));
}

TEST(SearchRestart, RecordRestartsRepeatWhateverTheThreadsAndPartFromOwn) {
  KS_REQUIRE_DATA(data("qaplib-large/tai25a.dat"));
  const Problem p = test::qaplib_problem(data("qaplib-large/tai25a.dat"));
  expect_runs_repeat_whatever_the_threads(p, RestartFrom::Record);
  expect_runs_repeat_whatever_the_threads(p, RestartFrom::Record, 0.6);
  // Own restarts go on from the best since the last restart, record ones go back to the best since the start:
  // they part once a restart leads somewhere worse, which a small kick rarely does on tai25a (the tabu search
  // finds its way back), so here the kicks are 15 swaps.
  SearchRequest own = restarting(RestartFrom::Own), record = restarting(RestartFrom::Record);
  own.params.perturb = record.params.perturb = 0.6;
  EXPECT_NE(trace_chains(p, own, 10, pool(), nullptr), trace_chains(p, record, 10, pool(), nullptr));
}

TEST(SearchRestart, BreakoutBelowOrAtPerturbIsRefused) {
  KS_REQUIRE_DATA(data("qaplib-large/tai25a.dat"));
  const Problem p = test::qaplib_problem(data("qaplib-large/tai25a.dat"));
  for (const double perturb_max : {0.05, 0.12}) {  // perturb is 0.12
    SearchRequest r = restarting(RestartFrom::Own);
    r.params.perturb_max = perturb_max;
    try {
      search(p, r, {}, pool(), nullptr);
      ADD_FAILURE() << "perturb_max " << perturb_max << " was taken";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("perturb_max"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace ks::topo
