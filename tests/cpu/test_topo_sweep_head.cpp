// Exhaustive sweeps with a head (sweep_head.hpp: n = 17, or any n when a test forces it): a headed sweep must give
// the direct sweep's results bit for bit (exact costs) in every arithmetic, over ranges that cut heads and runs,
// on several workers and across a checkpoint; keys must order as indices; and n = 17 must sweep a real instance
// (nug17) to the costs of the definition, its optimum included.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <thread>
#include <tuple>

#include "core/error.hpp"
#include "support/loopback_ranks.hpp"
#include "support/qaplib_optima.hpp"
#include "support/shared_data.hpp"
#include "support/test_support.hpp"
#include "support/topo_compare.hpp"
#include "support/topo_instances.hpp"
#include "support/topo_sweep_runs.hpp"
#include "topo/evaluation.hpp"
#include "topo/sweep/head_tables.hpp"
#include "topo/sweep/sweep_core.hpp"
#include "topo/sweep/sweep_head.hpp"
#include "topo/sweep/sweep_plan.hpp"
#include "topo/sweep/sweep_worker.hpp"

namespace ks::topo {
namespace {

using test::expect_identical;
using test::nth_placement;
using test::on_workers;

// Traffic of `timestamps` slices (and their sum) and `configs` path-cost matrices with a non-zero diagonal, so that
// the head's own cost (the constant) counts too.
Problem problem_with_diagonal(int n, int timestamps, int configs, std::uint32_t seed, bool integer,
                              std::int64_t max_traffic = 1000) {
  std::vector<Configuration> cs;
  for (int c = 0; c < configs; ++c) cs.push_back(test::random_costs(n, seed * 7 + std::uint32_t(c), integer, true));
  return make_problem(test::random_traffic(n, timestamps, seed, integer, max_traffic), cs);
}

TEST(TopoSweepHead, KeysNameTheirPlacementAndOrderAsIndices) {
  std::mt19937_64 rng(17);
  for (const auto& [n, h] : {std::pair{17, 1}, std::pair{9, 2}, std::pair{7, 2}, std::pair{16, 0}, std::pair{6, 3}}) {
    SCOPED_TRACE(::testing::Message() << "n = " << n << ", head of " << h);
    const SweepPlan plan = plan_sweep(n, 0, factorial(n), 1, SweepShape{h, 0});
    const SweepKeys keys = plan.keys();
    std::vector<std::uint64_t> indices = {0, 1, 2, factorial(n) - 2, factorial(n) - 1};
    for (std::uint64_t head = 1; head < plan.heads && head < 5; ++head)  // both sides of a head's first placement
      for (std::uint64_t d : {std::uint64_t(0), std::uint64_t(1)}) indices.push_back(head * factorial(n - h) - d);
    std::uniform_int_distribution<std::uint64_t> any(0, factorial(n) - 1);
    for (int k = 0; k < 400; ++k) indices.push_back(any(rng));
    std::sort(indices.begin(), indices.end());
    std::uint64_t previous_key = 0;
    for (std::size_t k = 0; k < indices.size(); ++k) {
      const std::uint64_t i = indices[k];
      std::uint8_t placement[kMaxPlacementNodes];
      const std::uint64_t key = keys.key_of_index(i, placement);
      EXPECT_EQ(keys.index_of_key(key), i);
      EXPECT_EQ(std::vector<int>(placement, placement + n), nth_placement(i, n)) << i;
      if (k > 0 && i != indices[k - 1]) {
        EXPECT_LT(previous_key, key) << i;
      }
      previous_key = key;
    }
  }
}

// Every cost one walk of a plan's runs visits (by index), and its summary, in arithmetic A.
template <class A>
struct Walked {
  std::vector<typename A::Value> cost;  // [index - lo]
  std::vector<bool> seen;
  RunningStats<A> stats;
  std::uint64_t argmin = 0;
};

template <class A, bool Headed>
Walked<A> walk_plan(const Problem& p, const SweepPlan& plan, int s, int c) {
  using V = typename A::Value;
  // The problem's integers (or doubles) in A's type; with a head, the tables the backends take.
  std::vector<V> traffic, paths;
  HeadTables<V> heads;
  if constexpr (Headed) {
    if constexpr (A::exact)
      heads = converted<V>(make_head_tables<ExactInt64>(p, plan));
    else
      heads = make_head_tables<RealDouble>(p, plan);
  } else {
    const std::size_t nn = std::size_t(p.n) * std::size_t(p.n);
    if constexpr (A::exact) {
      traffic.assign(p.traffic_scaled.begin() + std::ptrdiff_t(s * nn), p.traffic_scaled.begin() + std::ptrdiff_t((s + 1) * nn));
      paths.assign(p.cost_scaled.begin() + std::ptrdiff_t(c * nn), p.cost_scaled.begin() + std::ptrdiff_t((c + 1) * nn));
    } else {
      traffic.assign(p.traffic_real.begin() + std::ptrdiff_t(s * nn), p.traffic_real.begin() + std::ptrdiff_t((s + 1) * nn));
      paths.assign(p.cost_real.begin() + std::ptrdiff_t(c * nn), p.cost_real.begin() + std::ptrdiff_t((c + 1) * nn));
    }
  }
  const RunGeometry g = plan.geometry();
  const V* path_costs = Headed ? heads.cost_of(c) : paths.data();
  const SweepKeys keys = plan.keys();
  Walked<A> out;
  out.cost.resize(plan.hi - plan.lo);
  out.seen.resize(plan.hi - plan.lo);
  auto walk = [&](auto& w) {
    w.traffic = traffic.data();
    w.cost_of = path_costs;
    w.runtime_n = g.n;
    auto visit = [&](const auto& x) {
      const std::uint64_t i = keys.index_of_key(sweep_key(x)) - plan.lo;
      EXPECT_FALSE(out.seen[i]) << "visited twice: " << i + plan.lo;
      out.seen[i] = true;
      out.cost[i] = x.cost;
      out.stats.add(x.cost, sweep_key(x));
    };
    for (std::uint64_t r = plan.first_run; r < plan.end_run; ++r) {
      const RunBounds b = plan.run(r);
      if constexpr (Headed) {
        w.traffic = heads.traffic_of(b.head, s);
        w.lin = heads.lin_of(b.head, s, c);
        w.constant = heads.constant_of(b.head, s, c);
        w.head_bits = b.head << kHeadKeyShift;
      }
      walk_run(w, g, b, visit);
    }
  };
  if (g.n >= kSuffixSlots) {
    SuffixWalker<A, 0, Headed> w;
    V coefficients[kSuffixSteps * kStepCoefficients];
    for (int step = 0; step < kSuffixSteps; ++step)
      suffix_coefficients<A>(path_costs, g.n, g.q, step, coefficients + step * kStepCoefficients);
    w.coefficients = coefficients;
    walk(w);
  } else {
    Walker<A, 0, Headed> w;
    walk(w);
  }
  out.argmin = keys.index_of_key(out.stats.key);
  return out;
}

struct HeadCase {
  int n, h;
  std::uint64_t run_blocks;
};

// Heads of one and two positions, walks of 4 positions (the O(n) walker) to 9, runs that do not divide a head.
const HeadCase kHeadCases[] = {{6, 2, 1}, {7, 2, 0}, {8, 1, 3}, {9, 2, 5}, {10, 1, 7}};

// The range of a case: from inside the second head to inside the fifth (or the last), cutting runs at both ends.
std::pair<std::uint64_t, std::uint64_t> range_across_heads(const HeadCase& k) {
  const std::uint64_t per_head = factorial(k.n - k.h);
  const std::uint64_t heads = factorial(k.n) / per_head;
  return {per_head + per_head / 3 + 1, std::min(heads, std::uint64_t(5)) * per_head - per_head / 4 - 3};
}

template <class A>
void expect_headed_walk_equals_direct(const Problem& p, const HeadCase& k, std::uint64_t lo, std::uint64_t hi) {
  const SweepPlan direct = plan_sweep(k.n, lo, hi, p.pairs());
  const SweepPlan headed = plan_sweep(k.n, lo, hi, p.pairs(), SweepShape{k.h, k.run_blocks});
  ASSERT_EQ(headed.h, k.h);
  for (int s = 0; s < p.slices; ++s)
    for (int c = 0; c < p.configs; ++c) {
      SCOPED_TRACE(::testing::Message() << "slice " << s << " configuration " << c);
      const Walked<A> want = walk_plan<A, false>(p, direct, s, c);
      const Walked<A> got = walk_plan<A, true>(p, headed, s, c);
      EXPECT_EQ(std::count(got.seen.begin(), got.seen.end(), true), std::ptrdiff_t(hi - lo));
      EXPECT_EQ(got.stats.count, hi - lo);
      if constexpr (A::exact) {
        EXPECT_TRUE(got.cost == want.cost);
        EXPECT_EQ(got.stats.min, want.stats.min);
        EXPECT_EQ(got.argmin, want.argmin);
        EXPECT_EQ(got.stats.max, want.stats.max);
        EXPECT_EQ(got.stats.sum.lo, want.stats.sum.lo);
        EXPECT_EQ(got.stats.sum.hi, want.stats.sum.hi);
      } else {  // other roundings: close, not equal
        for (std::size_t i = 0; i < want.cost.size(); ++i)
          ASSERT_NEAR(got.cost[i], want.cost[i], 1e-9 * std::abs(want.cost[i])) << i + lo;
      }
    }
}

TEST(TopoSweepHead, AHeadedWalkGivesTheDirectWalksCostsInEveryArithmetic) {
  for (const HeadCase& k : kHeadCases) {
    SCOPED_TRACE(::testing::Message() << "n = " << k.n << ", head of " << k.h);
    const auto [lo, hi] = range_across_heads(k);
    const Problem exact = problem_with_diagonal(k.n, 1, 2, 100 + std::uint32_t(k.n), true);
    expect_headed_walk_equals_direct<ExactInt64>(exact, k, lo, hi);
    expect_headed_walk_equals_direct<ExactDouble>(exact, k, lo, hi);
    expect_headed_walk_equals_direct<ExactFloat>(exact, k, lo, hi);
    expect_headed_walk_equals_direct<RealDouble>(problem_with_diagonal(k.n, 1, 2, 200 + std::uint32_t(k.n), false), k,
                                                 lo, hi);
  }
}

EvalRequest request_with(std::uint64_t lo, std::uint64_t hi, SweepShape shape) {
  EvalRequest r;
  r.range_begin = lo;
  r.range_end = hi;
  r.top_k = 23;
  r.shape = shape;
  return r;
}

TEST(TopoSweepHead, AHeadedSweepGivesTheDirectSweepsResults) {
  for (const HeadCase& k : kHeadCases)
    for (std::int64_t max_traffic : {1000, 1}) {  // 1: traffic of 0 and 1, so ties decide the argmin and the top
      SCOPED_TRACE(::testing::Message() << "n = " << k.n << ", head of " << k.h << ", traffic up to " << max_traffic);
      const Problem p = problem_with_diagonal(k.n, 2, 2, 300 + std::uint32_t(k.n), true, max_traffic);
      for (const auto& [lo, hi] : {range_across_heads(k), std::pair{std::uint64_t(0), factorial(k.n)}}) {
        if (k.n == 10 && hi - lo > 2000000) continue;  // the whole of 10! is slow on two cores
        EvalRequest direct = request_with(lo, hi, {});
        direct.batch_evaluations = 5011 * p.pairs();  // chunks that end anywhere, heads included
        EvalRequest headed = direct;
        headed.shape = SweepShape{k.h, k.run_blocks};
        const EvalResult want = on_workers(p, direct, 1);
        ASSERT_TRUE(want.complete);
        expect_identical(on_workers(p, headed, 3), want);
      }
    }
}

TEST(TopoSweepHead, AHeadedSweepOfRealCostsAgreesWithinRounding) {
  const HeadCase k{9, 2, 5};
  const Problem p = problem_with_diagonal(k.n, 2, 1, 41, false);
  const auto [lo, hi] = range_across_heads(k);
  const EvalResult want = on_workers(p, request_with(lo, hi, {}), 1);
  const EvalResult got = on_workers(p, request_with(lo, hi, SweepShape{k.h, k.run_blocks}), 2);
  ASSERT_EQ(got.slices.size(), want.slices.size());
  for (std::size_t s = 0; s < want.slices.size(); ++s) {
    const SliceResult &g = got.slices[s], &w = want.slices[s];
    EXPECT_EQ(g.count, w.count);
    EXPECT_NEAR(g.min.value, w.min.value, 1e-9 * w.min.value);
    EXPECT_NEAR(g.max.value, w.max.value, 1e-9 * w.max.value);
    EXPECT_NEAR(g.mean, w.mean, 1e-9 * w.mean);
    EXPECT_EQ(g.argmin, w.argmin);  // random doubles: no two placements within rounding of each other
    EXPECT_EQ(g.placement, w.placement);
  }
  ASSERT_EQ(got.top.size(), want.top.size());
  for (std::size_t i = 0; i < want.top.size(); ++i) EXPECT_EQ(got.top[i].index, want.top[i].index) << i;
}

TEST(TopoSweepHead, AHeadedSweepResumedAcrossHeadsEndsWithTheDirectSweepsBits) {
  test::TempDir dir;
  const HeadCase k{8, 1, 3};
  // Costs that span too many values for the CPU to count them in the sweep pass: the histogram pass walks too.
  const Problem p = problem_with_diagonal(k.n, 1, 2, 5, true, 100000);
  const EvalRequest direct = request_with(1000, factorial(8) - 999, {});
  EvalRequest headed = direct;
  headed.shape = SweepShape{k.h, k.run_blocks};
  headed.batch_evaluations = 601 * p.pairs();  // a run a chunk: 110 chunks over 8 heads of 5040 placements
  const EvalResult want = on_workers(p, direct, 1);
  for (const char* pass : {"sweep", "histogram", "top"}) {
    SCOPED_TRACE(pass);
    expect_identical(test::stop_and_resume(p, headed, pass, 3, false, dir / "head.checkpoint"), want);
  }
}

TEST(TopoSweepHead, AHeadedSweepOverRanksGivesTheDirectSweepsBits) {
  const HeadCase k{9, 2, 5};
  const Problem p = problem_with_diagonal(k.n, 1, 2, 61, true);
  const auto [lo, hi] = range_across_heads(k);
  EvalRequest headed = request_with(lo, hi, SweepShape{k.h, k.run_blocks});
  headed.batch_evaluations = 9001 * p.pairs();
  const EvalResult want = on_workers(p, request_with(lo, hi, {}), 1);
  test::LoopbackRanks ranks(3);
  std::vector<std::thread> others;
  for (int rank = 1; rank < 3; ++rank)
    others.emplace_back([&, rank] {
      serve_sweep(p, headed, test::one_thread_pool(rank), nullptr, ranks.link(rank), "rank " + std::to_string(rank));
    });
  RankRoster roster(ranks.link(0));
  SweepSetup setup;
  setup.ranks = &roster;
  const EvalResult got = on_workers(p, headed, 1, setup);
  for (auto& t : others) t.join();
  EXPECT_EQ(got.timing.ranks, 3);
  expect_identical(got, want);
}

// Costs from the definition, for the placements [lo, hi) of a QAPLIB problem (one slice, one configuration).
struct Defined {
  std::int64_t min = INT64_MAX, max = INT64_MIN;
  std::uint64_t argmin = 0;
  long double sum = 0;
  std::vector<std::pair<std::int64_t, std::uint64_t>> ranked;  // (cost, index), best first
};

Defined from_definition(const Problem& p, std::uint64_t lo, std::uint64_t hi) {
  Defined d;
  const int n = p.n;
  for (std::uint64_t i = lo; i < hi; ++i) {
    const std::vector<int> pl = nth_placement(i, n);
    std::int64_t c = 0;
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b)
        c += p.cost_scaled[std::size_t(a * n + b)] * p.traffic_scaled[std::size_t(pl[std::size_t(a)] * n + pl[std::size_t(b)])];
    if (c < d.min) d.min = c, d.argmin = i;
    d.max = std::max(d.max, c);
    d.sum += (long double)c;
    d.ranked.emplace_back(c, i);
  }
  std::sort(d.ranked.begin(), d.ranked.end());
  return d;
}

void expect_defined(const EvalResult& res, const Problem& p, std::uint64_t lo, std::uint64_t hi) {
  const Defined d = from_definition(p, lo, hi);
  ASSERT_TRUE(res.complete);
  const SliceResult& s = res.at(0, 0);
  EXPECT_EQ(s.count, hi - lo);
  EXPECT_EQ(s.min.scaled, d.min);
  EXPECT_EQ(s.max.scaled, d.max);
  EXPECT_EQ(s.argmin, d.argmin);
  EXPECT_EQ(s.placement, nth_placement(d.argmin, p.n));
  EXPECT_EQ(s.mean, double(d.sum / (long double)(hi - lo)));
  ASSERT_EQ(res.top.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(res.top[i].cost.scaled, d.ranked[i].first) << i;
    EXPECT_EQ(res.top[i].index, d.ranked[i].second) << i;
    EXPECT_EQ(res.top[i].placement, nth_placement(d.ranked[i].second, p.n)) << i;
  }
}

TEST(TopoSweepHead, SeventeenNodesSweepNug17ToItsOptimumAndTheDefinitionsCosts) {
  const auto file = test::data("qaplib-20/nug17.dat");
  KS_REQUIRE_DATA(file);
  const Problem p = test::qaplib_problem(file);
  ASSERT_EQ(p.n, 17);
  // An optimal placement (cost 1732, QAPLIB's published optimum), node at each position.
  const std::vector<int> optimal = {15, 14, 1, 13, 8, 10, 7, 11, 9, 2, 3, 0, 6, 5, 12, 16, 4};
  const std::uint64_t at = index_of_placement(optimal);
  ASSERT_EQ(nth_placement(at, 17), optimal);
  const std::uint64_t per_head = factorial(16);
  for (const auto& [lo, hi] : {std::pair{at - 4000, at + 3000},              // around the optimum (head 15)
                               std::pair{per_head - 2500, per_head + 3500},  // from head 0 into head 1
                               std::pair{factorial(17) - 3000, factorial(17)}}) {
    SCOPED_TRACE(::testing::Message() << lo << ":" << hi);
    EvalRequest r;
    r.range_begin = lo;
    r.range_end = hi;
    r.top_k = 5;
    r.batch_evaluations = 1777;  // a chunk a run: the runs of head 0 and head 1 in chunks of their own
    const EvalResult res = on_workers(p, r, 2);
    expect_defined(res, p, lo, hi);
    if (lo < at && at < hi) {
      EXPECT_EQ(res.at(0, 0).min.scaled, 1732);
      EXPECT_EQ(res.at(0, 0).argmin, at);
    }
  }
}

TEST(TopoSweepHead, EighteenNodesAreRefusedSayingHowManyAndWhatElse) {
  const Problem big = problem_with_diagonal(18, 1, 1, 4, true);
  try {
    evaluate(big, EvalRequest{}, {}, test::one_thread_pool(0), nullptr);
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string m = std::string(e.what()) + " " + e.hint();
    EXPECT_NE(m.find("6.4e+15 placements"), std::string::npos) << m;
    EXPECT_NE(m.find("up to n = 17"), std::string::npos) << m;
    EXPECT_NE(m.find("sample:"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace ks::topo
