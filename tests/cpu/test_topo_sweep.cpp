// The CPU topology sweep against brute force (tests/support/topo_instances.hpp): every reduction of an
// exhaustive sweep on random instances n = 5 .. 9, index ranges, cancellation, samples and given placements.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <tuple>

#include "core/error.hpp"
#include "support/shared_pool.hpp"
#include "support/topo_instances.hpp"
#include "topo/evaluation.hpp"
#include "topo/permutation.hpp"

namespace ks::topo {
namespace {

using test::pool;

using test::brute_force;
using test::BruteForce;

Problem random_problem(int n, int timestamps, int configs, std::uint32_t seed, bool integer = true,
                       bool diagonal = false, std::int64_t max_traffic = 1000) {
  std::vector<Configuration> cs;
  for (int c = 0; c < configs; ++c)
    cs.push_back(test::random_costs(n, seed * 31 + std::uint32_t(c), integer, diagonal));
  return make_problem(test::random_traffic(n, timestamps, seed, integer, max_traffic), cs);
}

double value_of(const Problem& p, long double scaled_or_real) {
  return p.exact ? double(scaled_or_real) / std::pow(10.0, p.decimals) : double(scaled_or_real);
}

// Checks every per-(slice, configuration) reduction of `r` against brute force over placement indices [a, b).
void expect_slices_match(const Problem& p, const BruteForce& bf, const EvalResult& r, std::uint64_t a,
                         std::uint64_t b, bool check_histogram) {
  for (int s = 0; s < p.slices; ++s)
    for (int c = 0; c < p.configs; ++c) {
      SCOPED_TRACE(::testing::Message() << "slice " << s << " configuration " << c);
      long double lo = 0, hi = 0, sum = 0;
      std::uint64_t arg = 0;
      for (std::uint64_t k = a; k < b; ++k) {
        const long double v = bf.at(k, s, c);
        if (k == a || v < lo) lo = v, arg = k;
        if (k == a || v > hi) hi = v;
        sum += v;
      }
      const SliceResult& got = r.at(s, c);
      ASSERT_EQ(got.count, b - a);
      if (p.exact) {
        EXPECT_EQ(got.min.scaled, std::int64_t(lo));
        EXPECT_EQ(got.max.scaled, std::int64_t(hi));
        EXPECT_EQ(got.argmin, arg);  // the lowest index among equal minima
        EXPECT_DOUBLE_EQ(got.mean, value_of(p, sum / (long double)(b - a)));
      } else {
        EXPECT_NEAR(got.min.value, double(lo), 1e-9 * double(hi));
        EXPECT_NEAR(got.max.value, double(hi), 1e-9 * double(hi));
        EXPECT_NEAR(bf.at(got.argmin, s, c), lo, 1e-9 * double(hi));  // a minimum, up to rounding
        EXPECT_NEAR(got.mean, double(sum / (long double)(b - a)), 1e-9 * double(hi));
      }
      EXPECT_EQ(got.placement, test::nth_permutation_by_stepping(p.n, got.argmin));
      if (!check_histogram) continue;
      ASSERT_TRUE(got.histogram.has_value());
      std::array<std::uint64_t, kHistogramBins> expected{};
      if (p.exact) {
        // The documented bins: whole-number width ceil((max - min + 1) / 64), bin (cost - min) / width.
        const std::int64_t width = (std::int64_t(hi - lo) + 1 + kHistogramBins - 1) / kHistogramBins;
        EXPECT_EQ(got.histogram->width.scaled, width);
        for (std::uint64_t k = a; k < b; ++k)
          ++expected[std::size_t((std::int64_t(bf.at(k, s, c) - lo)) / width)];
        EXPECT_EQ(got.histogram->counts, expected);
      } else {
        std::uint64_t total = 0;
        for (auto n : got.histogram->counts) total += n;
        EXPECT_EQ(total, b - a);
      }
    }
}

struct Case {
  int n, timestamps, configs;
  bool integer;
};

class SweepVsBruteForce : public ::testing::TestWithParam<Case> {};

TEST_P(SweepVsBruteForce, EveryReductionMatches) {
  const Case k = GetParam();
  const Problem p = random_problem(k.n, k.timestamps, k.configs, std::uint32_t(100 + k.n), k.integer);
  ASSERT_EQ(p.exact, k.integer);
  const BruteForce bf = brute_force(p);
  EvalRequest req;
  req.top_k = 7;
  const EvalResult r = evaluate(p, req, {}, pool(), nullptr);
  ASSERT_TRUE(r.complete);
  EXPECT_EQ(r.placements, factorial(k.n));
  EXPECT_EQ(r.evaluations, factorial(k.n) * p.pairs());
  expect_slices_match(p, bf, r, 0, factorial(k.n), true);

  // Top-K: all (cost, index, configuration) of the top slice, sorted.
  std::vector<std::tuple<long double, std::uint64_t, int>> all;
  for (std::uint64_t i = 0; i < bf.placements(); ++i)
    for (int c = 0; c < p.configs; ++c) all.emplace_back(bf.at(i, r.top_slice, c), i, c);
  std::sort(all.begin(), all.end());
  ASSERT_EQ(r.top.size(), 7u);
  for (std::size_t i = 0; i < r.top.size(); ++i) {
    SCOPED_TRACE(::testing::Message() << "top " << i);
    if (p.exact) {
      EXPECT_EQ(r.top[i].cost.scaled, std::int64_t(std::get<0>(all[i])));
      EXPECT_EQ(r.top[i].index, std::get<1>(all[i]));
      EXPECT_EQ(r.top[i].configuration, std::get<2>(all[i]));
    } else {
      EXPECT_NEAR(r.top[i].cost.value, double(std::get<0>(all[i])), 1e-9 * double(std::get<0>(all[i])));
    }
    EXPECT_EQ(r.top[i].placement, test::nth_permutation_by_stepping(p.n, r.top[i].index));
  }

  // Best configuration per timestamp, best over timestamps, best on the summed traffic.
  const auto per_t = best_per_timestamp(r);
  ASSERT_EQ(int(per_t.size()), k.timestamps);
  long double overall = 0;
  for (int t = 0; t < k.timestamps; ++t) {
    long double best = 0;
    for (std::uint64_t i = 0; i < bf.placements(); ++i)
      for (int c = 0; c < p.configs; ++c)
        if ((i == 0 && c == 0) || bf.at(i, t, c) < best) best = bf.at(i, t, c);
    EXPECT_NEAR(per_t[std::size_t(t)].cost.value, value_of(p, best), 1e-9 * value_of(p, best));
    if (t == 0 || best < overall) overall = best;
  }
  EXPECT_NEAR(best_overall(r).cost.value, value_of(p, overall), 1e-9 * value_of(p, overall));
  const auto over_time = best_over_time(r);
  ASSERT_EQ(over_time.has_value(), k.timestamps > 1);
  if (over_time) {
    // The summed slice from the definition: the sum of the per-timestamp costs of each placement.
    long double best = 0;
    for (std::uint64_t i = 0; i < bf.placements(); ++i)
      for (int c = 0; c < p.configs; ++c) {
        long double sum = 0;
        for (int t = 0; t < k.timestamps; ++t) sum += bf.at(i, t, c);
        if ((i == 0 && c == 0) || sum < best) best = sum;
      }
    EXPECT_NEAR(over_time->cost.value, value_of(p, best), 1e-9 * value_of(p, best));
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, SweepVsBruteForce,
                         ::testing::Values(Case{5, 3, 2, true}, Case{6, 2, 3, true}, Case{7, 2, 2, true},
                                           Case{8, 1, 2, true}, Case{9, 1, 1, true}, Case{6, 3, 2, false},
                                           Case{7, 1, 2, false}),
                         [](const auto& info) {
                           return "n" + std::to_string(info.param.n) +
                                  (info.param.integer ? "_int" : "_real");
                         });

TEST(TopoSweep, DiagonalTermsCountAsInQaplib) {
  // QAPLIB's objective sums over every i, j, the diagonal included: the swap's delta must carry D[r][r]
  // terms.
  const Problem p = make_problem(test::random_traffic(6, 1, 5, true), {test::random_costs(6, 7, true, true),
                                                                       test::random_costs(6, 8, true, true)});
  const BruteForce bf = brute_force(p);
  const EvalResult r = evaluate(p, EvalRequest{}, {}, pool(), nullptr);
  expect_slices_match(p, bf, r, 0, factorial(6), true);
}

TEST(TopoSweep, FewDistinctCostsCountedDuringTheSweepGiveTheSameHistogram) {
  // Traffic of 0 .. 2: costs span a few hundred values, so the CPU counts them in the Stats pass and reads
  // the histogram from the counts (cpu/topo_cpu.cpp); the bins must still be those of the definition.
  const Problem p = random_problem(8, 2, 2, 88, true, false, 2);
  ASSERT_LT(p.cost_bound, 2000u);
  const BruteForce bf = brute_force(p);
  EvalRequest req;
  req.batch_evaluations = 50000;  // several batches, each with its own counts
  const EvalResult r = evaluate(p, req, {}, pool(), nullptr);
  expect_slices_match(p, bf, r, 0, factorial(8), true);
  req.range_begin = 1000;
  req.range_end = 30001;
  req.repeat = 2;
  const EvalResult part = evaluate(p, req, {}, pool(), nullptr);
  expect_slices_match(p, bf, part, 1000, 30001, true);
}

TEST(TopoSweep, WideCostRangesGiveTheSameHistogramCountedOrWalkedAgain) {
  // Up to 2^20 cost values the CPU counts them over the whole sweep (the first Histogram pass adds them all);
  // beyond, it walks every placement again. Both must give the bins of the definition, over several batches.
  for (std::int64_t max_traffic : {std::int64_t(800), std::int64_t(100000000)}) {
    const Problem p = random_problem(7, 2, 2, 17, true, false, max_traffic);
    SCOPED_TRACE(::testing::Message() << "cost bound " << p.cost_bound);
    if (max_traffic == 800) {
      ASSERT_GT(p.cost_bound, 1u << 14);
      ASSERT_LT(p.cost_bound, (1u << 20) / 4);  // four (slice, configuration) pairs: counted
    } else {
      ASSERT_GT(p.cost_bound, 1u << 20);  // walked again
    }
    const BruteForce bf = brute_force(p);
    EvalRequest req;
    req.batch_evaluations = 4000;
    req.repeat = 2;
    const EvalResult r = evaluate(p, req, {}, pool(), nullptr);
    expect_slices_match(p, bf, r, 0, factorial(7), true);
  }
}

TEST(TopoSweep, RangesSplitAndCoverTheWhole) {
  const Problem p = random_problem(7, 2, 2, 77);
  const BruteForce bf = brute_force(p);
  const std::uint64_t cuts[] = {0, 1, 999, 2500, 5039, 5040};
  for (std::size_t i = 0; i + 1 < std::size(cuts); ++i) {
    EvalRequest req;
    req.range_begin = cuts[i];
    req.range_end = cuts[i + 1];
    const EvalResult r = evaluate(p, req, {}, pool(), nullptr);
    SCOPED_TRACE(::testing::Message() << "range " << cuts[i] << ":" << cuts[i + 1]);
    EXPECT_EQ(r.range_begin, cuts[i]);
    EXPECT_EQ(r.evaluated_end, cuts[i + 1]);
    expect_slices_match(p, bf, r, cuts[i], cuts[i + 1], true);
  }
}

TEST(TopoSweep, CancelKeepsWhatWasEvaluated) {
  const Problem p = random_problem(8, 1, 1, 8);
  const BruteForce bf = brute_force(p);
  EvalRequest req;
  req.batch_evaluations = 2000;  // many batches
  std::atomic<bool> cancel{false};
  int reports = 0;
  EvalControl ctl;
  ctl.cancel = &cancel;
  ctl.progress = [&](const EvalProgress& pr) {
    EXPECT_LE(pr.evaluations_done, pr.evaluations_total);
    if (++reports == 3) cancel = true;
  };
  const EvalResult r = evaluate(p, req, ctl, pool(), nullptr);
  EXPECT_FALSE(r.complete);
  EXPECT_GT(r.evaluated_end, 0u);
  EXPECT_LT(r.evaluated_end, factorial(8));
  EXPECT_EQ(r.placements, r.evaluated_end);
  expect_slices_match(p, bf, r, 0, r.evaluated_end, false);
}

TEST(TopoSweep, SamplesAndGivenPlacementsCostWhatTheDefinitionSays) {
  const Problem p = random_problem(7, 2, 2, 21);
  const BruteForce bf = brute_force(p);
  EvalRequest req;
  req.mode = PlacementMode::Sample;
  req.samples = 500;
  req.seed = 9;
  req.top_k = 3;
  const EvalResult r = evaluate(p, req, {}, pool(), nullptr);
  for (const SliceResult& s : r.slices) {
    EXPECT_EQ(s.count, 500u);
    EXPECT_LT(s.argmin, 500u);
    const std::uint64_t index = index_of_placement(s.placement);
    EXPECT_EQ(std::int64_t(bf.at(index, s.slice, s.configuration)), s.min.scaled);
  }
  // The same seed draws the same placements.
  const EvalResult again = evaluate(p, req, {}, pool(), nullptr);
  EXPECT_EQ(again.at(0, 0).placement, r.at(0, 0).placement);
  EXPECT_EQ(again.top.size(), 3u);

  EvalRequest given;
  given.mode = PlacementMode::Given;
  given.placements = {{0, 1, 2, 3, 4, 5, 6}, {6, 5, 4, 3, 2, 1, 0}};
  const EvalResult g = evaluate(p, given, {}, pool(), nullptr);
  const std::uint64_t reversed = factorial(7) - 1;  // the last placement in lexicographic order
  for (const SliceResult& s : g.slices) {
    const long double a = bf.at(0, s.slice, s.configuration), b = bf.at(reversed, s.slice, s.configuration);
    EXPECT_EQ(s.min.scaled, std::int64_t(std::min(a, b)));
    EXPECT_EQ(s.max.scaled, std::int64_t(std::max(a, b)));
    EXPECT_EQ(s.argmin, b < a ? 1u : 0u);
  }
  EXPECT_EQ(placement_cost(p, 1, 1, {6, 5, 4, 3, 2, 1, 0}).scaled, std::int64_t(bf.at(reversed, 1, 1)));
}

TEST(TopoSweep, ImpossibleRequestsSayWhy) {
  const Problem p = random_problem(6, 1, 1, 3);
  auto message = [&](EvalRequest req) {
    try {
      evaluate(p, req, {}, pool(), nullptr);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EvalRequest range;
  range.range_begin = 10;
  range.range_end = 721;
  EXPECT_NE(message(range).find("720"), std::string::npos);
  EvalRequest given;
  given.mode = PlacementMode::Given;
  given.placements = {{0, 1, 2, 3, 4, 4}};
  EXPECT_NE(message(given).find("twice"), std::string::npos);
  EvalRequest cube;
  cube.cube_limit_bytes = 100;
  EXPECT_NE(message(cube).find("over the limit"), std::string::npos);

  // 18 nodes: 18! placements is beyond an exhaustive sweep; the message counts them and offers sampling.
  const Problem big = random_problem(18, 1, 1, 4);
  try {
    evaluate(big, EvalRequest{}, {}, pool(), nullptr);
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string m = std::string(e.what()) + " " + e.hint();
    EXPECT_NE(m.find("6.4e+15 placements"), std::string::npos) << m;
    EXPECT_NE(m.find("would take about"), std::string::npos) << m;
    EXPECT_NE(m.find("sample:"), std::string::npos) << m;
  }
}

TEST(TopoSweep, CubeHoldsEveryCost) {
  const Problem p = random_problem(5, 2, 2, 55);
  const BruteForce bf = brute_force(p);
  EvalRequest req;
  req.cube_limit_bytes = 1 << 20;
  req.range_begin = 7;
  req.range_end = 100;
  const EvalResult r = evaluate(p, req, {}, pool(), nullptr);
  ASSERT_EQ(r.cube_scaled.size(), std::size_t(93 * p.pairs()));
  for (std::uint64_t i = 7; i < 100; ++i)
    for (int s = 0; s < p.slices; ++s)
      for (int c = 0; c < p.configs; ++c)
        EXPECT_EQ(
            r.cube_scaled[((i - 7) * std::uint64_t(p.slices) + std::uint64_t(s)) * std::uint64_t(p.configs) +
                          std::uint64_t(c)],
            std::int64_t(bf.at(i, s, c)));
}

}  // namespace
}  // namespace ks::topo
