// The tabu search's band tenures (Taillard 1991) on QAPLIB's tai25a, stepped one move at a time through
// trace_chains: the tenure in force stays in [0.9 n, 1.1 n] and changes only where it is drawn anew (every
// 2 x 1.1 n moves), a move that brings back two assignments undone within the tenure is made only when it
// gives the chain a new best (aspiration), and seeded runs repeat whatever the threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "support/qaplib_optima.hpp"
#include "support/shared_data.hpp"
#include "support/shared_pool.hpp"
#include "topo/search/search.hpp"

namespace ks::topo {
namespace {

using test::data;
using test::pool;

constexpr int kN = 25;                   // tai25a
constexpr int kLow = 23, kHigh = 28;     // 0.9 x 25 = 22.5 and 1.1 x 25 = 27.5, rounded half away from zero
constexpr int kPeriod = 2 * kHigh;       // moves between draws
constexpr int kSteps = 6 * kPeriod + 5;  // well short of the aspiration by age (5 n^2 moves) and of a restart

SearchRequest band_request(int chains) {
  SearchRequest r;
  r.params.tenure_rule = TenureRule::Band;
  r.params.chains = chains;
  r.params.sync = 1;  // trace_chains then looks after every move
  r.seed = 2026;
  r.iterations = 1;  // unused by trace_chains
  return r;
}

TEST(SearchTenure, BandTenuresStayInTheirRangeAndChangeOnlyWhenRedrawn) {
  KS_REQUIRE_DATA(data("qaplib-large/tai25a.dat"));
  const Problem p = test::qaplib_problem(data("qaplib-large/tai25a.dat"));
  ASSERT_EQ(p.n, kN);
  const int chains = 4;
  const auto trace = trace_chains(p, band_request(chains), kSteps, pool(), nullptr);
  ASSERT_EQ(trace.size(), std::size_t(kSteps));
  std::set<int> seen;
  for (int c = 0; c < chains; ++c) {
    int draws = 0;
    for (int step = 0; step < kSteps; ++step) {
      const ChainSnapshot& s = trace[std::size_t(step)][std::size_t(c)];
      ASSERT_EQ(s.iteration, step + 1);
      EXPECT_GE(s.tenure, kLow) << "chain " << c << " move " << step;
      EXPECT_LE(s.tenure, kHigh) << "chain " << c << " move " << step;
      seen.insert(s.tenure);
      // The move of iteration `step` draws a tenure when step is a multiple of the period.
      if (step % kPeriod == 0) {
        ++draws;
      } else {
        EXPECT_EQ(s.tenure, trace[std::size_t(step - 1)][std::size_t(c)].tenure)
            << "chain " << c << " changed its tenure at move " << step;
      }
    }
    EXPECT_EQ(draws, 7);
  }
  // 28 draws of 6 values: each end of the range is drawn (the chance of missing one is 28 x (5/6)^28 < 2%,
  // and the run is seeded).
  EXPECT_TRUE(seen.count(kLow)) << "the shortest tenure was never drawn";
  EXPECT_TRUE(seen.count(kHigh)) << "the longest tenure was never drawn";
}

TEST(SearchTenure, AMoveUndoneWithinItsTenureComesBackOnlyAsANewBest) {
  KS_REQUIRE_DATA(data("qaplib-large/tai25a.dat"));
  const Problem p = test::qaplib_problem(data("qaplib-large/tai25a.dat"));
  const int chains = 3;
  const auto trace = trace_chains(p, band_request(chains), kSteps, pool(), nullptr);
  int refused_would_be = 0, aspired = 0;
  for (int c = 0; c < chains; ++c) {
    // (position, node) -> the last move (0-based) that took that node away from that position, and the
    // tenure it was given.
    std::map<std::pair<int, int>, std::pair<int, int>> undone;
    for (int step = 1; step < kSteps; ++step) {
      const ChainSnapshot &before = trace[std::size_t(step - 1)][std::size_t(c)],
                          &after = trace[std::size_t(step)][std::size_t(c)];
      std::vector<int> moved;
      for (int i = 0; i < kN; ++i)
        if (before.placement[std::size_t(i)] != after.placement[std::size_t(i)]) moved.push_back(i);
      ASSERT_EQ(moved.size(), 2u) << "a move swaps two positions (chain " << c << ", move " << step << ")";
      const int u = moved[0], v = moved[1];
      // Tabu: both new assignments were undone by a move made within their tenure.
      auto tabu = [&](int position, int node) {
        const auto it = undone.find({position, node});
        return it != undone.end() && step - it->second.first <= it->second.second;
      };
      const bool is_tabu =
          tabu(u, after.placement[std::size_t(u)]) && tabu(v, after.placement[std::size_t(v)]);
      const bool new_best = after.best_iteration == after.iteration && after.best_i < before.best_i;
      if (is_tabu) {
        EXPECT_TRUE(new_best) << "chain " << c << " move " << step << " made a tabu move that is no new best";
        ++aspired;
      }
      // How often a move undone within its tenure is still possible: a move that brings back one of the
      // two assignments.
      if (tabu(u, after.placement[std::size_t(u)]) || tabu(v, after.placement[std::size_t(v)]))
        ++refused_would_be;
      undone[{u, before.placement[std::size_t(u)]}] = {step, after.tenure};
      undone[{v, before.placement[std::size_t(v)]}] = {step, after.tenure};
    }
  }
  // Half-tabu moves (one assignment back) are allowed and happen: the check above looked at real cases.
  EXPECT_GT(refused_would_be, 0);
  std::printf(
      "tai25a, %d chains x %d moves: %d moves brought back an assignment within its tenure, %d tabu "
      "moves taken as new bests\n",
      chains, kSteps, refused_would_be, aspired);
}

TEST(SearchTenure, SeededBandRunsRepeatWhateverTheThreads) {
  KS_REQUIRE_DATA(data("qaplib-large/tai25a.dat"));
  const Problem p = test::qaplib_problem(data("qaplib-large/tai25a.dat"));
  SearchRequest r = band_request(5);
  r.params.sync = 200;
  r.params.tabu_stall = 1;  // restarts from the elites happen
  r.iterations = 4000;
  ThreadPool one(1);
  const SearchResult a = search(p, r, {}, pool(), nullptr);
  const SearchResult b = search(p, r, {}, one, nullptr);
  EXPECT_EQ(a.best().best.scaled, b.best().best.scaled);
  EXPECT_EQ(a.best().placement, b.best().placement);
  EXPECT_EQ(a.best().restarts, b.best().restarts);
  EXPECT_GT(a.best().restarts, 0u);
  EXPECT_EQ(trace_chains(p, r, 4, pool(), nullptr), trace_chains(p, r, 4, one, nullptr));
  // And the band rule is not the cubed one under another name: the same seed moves differently.
  SearchRequest cubed = r;
  cubed.params.tenure_rule = TenureRule::Cubed;
  EXPECT_NE(trace_chains(p, r, 4, pool(), nullptr), trace_chains(p, cubed, 4, pool(), nullptr));
}

}  // namespace
}  // namespace ks::topo
