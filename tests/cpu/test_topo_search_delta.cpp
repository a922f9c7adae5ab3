// The search's arithmetic on its own: the O(n) swap delta against the definition (a brute-force double sum
// over the swapped placement, written here), the delta matrix kept by Taillard's O(1) update after random
// move sequences against its full recomputation (n = 2, 3, 17, 100; symmetric and asymmetric; integer,
// decimal, real-valued and small traffic; int32 with 32-, 16- and 8-bit matrices, int64 and double
// arithmetic), the bits of the stored matrices, the cost a tabu chain tracks against the definition, and
// det_exp against std::exp. The symmetric forms (both matrices symmetric): the O(n) delta against the
// definition, a chain on them against a chain on the general forms step by step (the same moves, the same
// deltas), and symmetry found only where both matrices have it. The ranking a step does while it updates the
// delta matrix against a full ranking of every pair.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/error.hpp"
#include "support/topo_instances.hpp"
#include "topo/search/search_backend.hpp"
#include "topo/search/search_plan.hpp"
#include "topo/search/tabu_step.hpp"

namespace ks::topo {
namespace {

enum class Values { Integer, Decimal, Real, Small };

// Traffic in [0, 1000] and path costs 1 .. 6 (zero diagonal, or 1 .. 6 there too with `diagonal`),
// optionally made symmetric; Decimal traffic has two decimals (exact, scaled by 100), Real traffic arbitrary
// doubles, Small traffic integers in [0, 127] (an 8-bit chain's, ExactInt32In<int8_t>).
Problem instance(int n, bool symmetric, Values values, std::uint32_t seed, bool diagonal = false) {
  TrafficSeries t = test::random_traffic(n, 1, seed, values != Values::Real);
  Configuration c = test::random_costs(n, seed + 101, true, diagonal);
  if (values == Values::Decimal || values == Values::Small) {
    std::mt19937_64 rng(seed);
    const bool decimal = values == Values::Decimal;
    std::vector<std::int64_t> scaled;
    for (double& v : t.values) {
      scaled.push_back(decimal ? std::int64_t(rng() % 100000) : std::int64_t(rng() % 128));
      v = double(scaled.back()) / (decimal ? 100 : 1);
    }
    t.scaled = scaled;
    t.decimals = decimal ? 2 : 0;
  }
  if (symmetric) test::make_symmetric(t, c, n);
  return make_problem(t, {c});
}

// cost(p) from the definition, in long double from the problem's own numbers (exact for the integer ones).
long double cost_by_definition(const Problem& p, const std::vector<std::uint16_t>& x) {
  const int n = p.n;
  long double sum = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const std::size_t d = std::size_t(i * n + j),
                        t = std::size_t(x[std::size_t(i)] * n + x[std::size_t(j)]);
      sum += p.exact ? (long double)p.cost_scaled[d] * (long double)p.traffic_scaled[t]
                     : (long double)p.cost_real[d] * (long double)p.traffic_real[t];
    }
  return sum;
}

long double delta_by_definition(const Problem& p, std::vector<std::uint16_t> x, int r, int s) {
  const long double before = cost_by_definition(p, x);
  std::swap(x[std::size_t(r)], x[std::size_t(s)]);
  return cost_by_definition(p, x) - before;
}

// A chain's arrays for one problem, in the arithmetic A.
template <class A>
struct Chain {
  using V = typename A::Value;
  using M = matrix_t<A>;
  std::vector<M> traffic, cost, padded_cost;
  std::vector<std::uint32_t> pairs;
  std::vector<std::uint16_t> p, best;
  std::vector<M> permuted;
  std::vector<std::int32_t> tabu;
  std::vector<V> delta;
  std::vector<typename MoveVectors<A>::Slot> vec;
  int pitch;
  StepSettings s;
  TabuChain<A> chain;
  SearchMatrices<A> m;
  ChainRegs<A> r;

  Chain(const Problem& problem, std::uint64_t seed, bool symmetric_forms = false)
      : pitch(matrix_pitch<M>(problem.n)) {
    const int n = problem.n;
    traffic = stored_as<M>(traffic_matrix<V>(problem, 0));
    cost = stored_as<M>(cost_matrix<V>(problem, 0));
    padded_cost = stored_as<M>(padded(cost_matrix<V>(problem, 0), n, pitch));
    pairs = pair_table(n);
    SplitMix64 rng(seed);
    p = random_start(rng, n);
    best.resize(std::size_t(n));
    permuted.resize(std::size_t(n * pitch));
    tabu.resize(std::size_t(n * tabu_pitch(n)));
    delta.resize(pairs.size());
    vec.resize(std::size_t(MoveVectors<A>::slots(n)));
    s.n = n;
    s.pairs = int(pairs.size());
    s.tenure_span = 8.0 * n;
    s.aspiration = 5 * n * n;
    s.symmetric = symmetric_forms;
    chain = TabuChain<A>{p.data(),    best.data(),  permuted.data(),
                         tabu.data(), delta.data(), MoveVectors<A>{vec.data(), n}};
    m = SearchMatrices<A>{traffic.data(), padded_cost.data(), pairs.data(), pitch};
    r.rng = SplitMix64(seed + 1);
    tabu_start(SoloTeam{}, m, chain, r, s);
  }

  // The permuted traffic is the traffic between the nodes the placement puts at each pair of positions.
  void expect_permuted_matches() const {
    const int n = s.n;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        ASSERT_EQ(permuted[std::size_t(i * pitch + j)],
                  traffic[std::size_t(p[std::size_t(i)] * n + p[std::size_t(j)])])
            << i << "," << j;
  }
};

// After `moves` random swaps, each followed by the O(1)/O(n) update, every entry equals its recomputation
// (swap_delta through the placement, not through the permuted traffic the chain keeps; integers in int64 from
// the problem's own matrices, so that narrower ones kept by the chain (ExactInt32In) are checked too).
template <class A>
void check_updates(const Problem& problem, int moves, std::uint64_t seed, bool symmetric_forms = false) {
  Chain<A> c(problem, seed, symmetric_forms);
  const int n = problem.n;
  const auto wide_traffic = traffic_matrix<std::int64_t>(problem, 0),
             wide_cost = cost_matrix<std::int64_t>(problem, 0);
  SplitMix64 rng(seed * 7 + 3);
  double scale = 1;  // the largest |delta| seen, for the real-valued tolerance
  for (int move = 0; move < moves; ++move) {
    int u = int(rng.below(std::uint32_t(n)));
    int v = int(rng.below(std::uint32_t(n - 1)));
    if (v >= u) ++v;
    if (u > v) std::swap(u, v);
    tabu_move(SoloTeam{}, c.m, c.chain, n, u, v, 0, 0);
    update_delta_matrix(SoloTeam{}, c.m, c.chain, c.s, u, v);
    c.expect_permuted_matches();
    for (std::size_t k = 0; k < c.pairs.size(); ++k) {
      const int i = pair_first(c.pairs[k]), j = pair_second(c.pairs[k]);
      ASSERT_EQ(pair_index(i, j, n), int(k));
      if constexpr (A::exact) {
        const std::int64_t full =
            swap_delta<ExactInt64>(wide_traffic.data(), wide_cost.data(), c.p.data(), n, i, j);
        ASSERT_EQ(std::int64_t(c.delta[k]), full)
            << "move " << move << " (" << u << "," << v << "), pair " << i << "," << j;
      } else {
        const auto full = swap_delta<A>(c.traffic.data(), c.cost.data(), c.p.data(), n, i, j);
        scale = std::max(scale, std::fabs(full));
        ASSERT_NEAR(c.delta[k], full, 1e-9 * scale) << "move " << move << ", pair " << i << "," << j;
      }
    }
  }
}

// check_updates in int32 (where the problem's bounds allow it) with each width of stored matrices that holds
// the entries: 32 bits, and 16 and 8 where they fit.
void check_int32_updates(const Problem& p, int moves, std::uint64_t seed, bool symmetric_forms = false) {
  if (choose_arithmetic(p, 0, 0) != SearchArithmetic::Int32) return;
  check_updates<ExactInt32>(p, moves, seed, symmetric_forms);
  const int bits = choose_matrix_bits(p, 0, 0, SearchArithmetic::Int32, 0);
  if (bits <= 16) check_updates<ExactInt32In<std::int16_t>>(p, moves, seed, symmetric_forms);
  if (bits <= 8) check_updates<ExactInt32In<std::int8_t>>(p, moves, seed, symmetric_forms);
}

// Calls check(problem) for n = 2, 3, 17, 100, asymmetric and symmetric, integer, decimal, real and small
// traffic.
template <class Check>
void for_each_instance(const Check& check) {
  for (int n : {2, 3, 17, 100})
    for (bool symmetric : {false, true})
      for (Values values : {Values::Integer, Values::Decimal, Values::Real, Values::Small}) {
        SCOPED_TRACE(::testing::Message()
                     << "n " << n << (symmetric ? " symmetric" : " asymmetric") << " values " << int(values));
        check(instance(n, symmetric, values, std::uint32_t(n * 10 + int(values))));
      }
}

TEST(SearchDelta, SwapDeltaIsTheDefinition) {
  for_each_instance([](const Problem& p) {
    const int n = p.n;
    SplitMix64 rng{std::uint64_t(n)};
    const std::vector<std::uint16_t> x = random_start(rng, n);
    // Every pair up to n = 17; 200 random pairs of n = 100.
    std::vector<std::pair<int, int>> pairs;
    if (n <= 17) {
      for (int r = 0; r < n; ++r)
        for (int s = r + 1; s < n; ++s) pairs.emplace_back(r, s);
    } else {
      for (int k = 0; k < 200; ++k) {
        const int r = int(rng.below(std::uint32_t(n)));
        int s = int(rng.below(std::uint32_t(n - 1)));
        if (s >= r) ++s;
        pairs.emplace_back(r, s);
      }
    }
    for (const auto& [r, s] : pairs) {
      const long double expected = delta_by_definition(p, x, r, s);
      if (p.exact) {
        const auto t = traffic_matrix<std::int64_t>(p, 0), d = cost_matrix<std::int64_t>(p, 0);
        EXPECT_EQ((long double)swap_delta<ExactInt64>(t.data(), d.data(), x.data(), n, r, s), expected);
      } else {
        const auto t = traffic_matrix<double>(p, 0), d = cost_matrix<double>(p, 0);
        const double got = swap_delta<RealDouble>(t.data(), d.data(), x.data(), n, r, s);
        EXPECT_NEAR(got, double(expected), 1e-9 * std::max(1.0L, std::fabs(cost_by_definition(p, x))));
      }
    }
  });
}

TEST(SearchDelta, UpdatedMatrixEqualsRecomputationAfterRandomMoves) {
  for_each_instance([](const Problem& p) {
    const int moves = p.n == 100 ? 12 : 60;
    const std::uint64_t seed = std::uint64_t(p.n);
    if (!p.exact) return check_updates<RealDouble>(p, moves, seed);
    check_updates<ExactInt64>(p, moves, seed);
    check_int32_updates(p, moves, seed);
  });
}

TEST(SearchDelta, SymmetricFormsUpdateTheMatrixToItsRecomputation) {
  for (int n : {2, 3, 17, 100})
    for (Values values : {Values::Integer, Values::Decimal, Values::Real, Values::Small}) {
      SCOPED_TRACE(::testing::Message() << "n " << n << " values " << int(values));
      const Problem p = instance(n, true, values, std::uint32_t(n * 10 + int(values)), true);
      const int moves = n == 100 ? 12 : 60;
      if (!p.exact) {
        check_updates<RealDouble>(p, moves, std::uint64_t(n), true);
        continue;
      }
      check_updates<ExactInt64>(p, moves, std::uint64_t(n), true);
      check_int32_updates(p, moves, std::uint64_t(n), true);
    }
}

TEST(SearchDelta, SymmetricSwapDeltaIsTheDefinition) {
  for (int n : {2, 3, 17, 60})
    for (Values values : {Values::Integer, Values::Real}) {
      SCOPED_TRACE(::testing::Message() << "n " << n << " values " << int(values));
      // With path costs and traffic on the diagonal, so the self term counts.
      const Problem p = instance(n, true, values, std::uint32_t(n + 3), true);
      SplitMix64 rng{std::uint64_t(n) + 5};
      const std::vector<std::uint16_t> x = random_start(rng, n);
      for (int r = 0; r < n; ++r)
        for (int s = r + 1; s < n; ++s) {
          const long double expected = delta_by_definition(p, x, r, s);
          if (p.exact) {
            const auto t = traffic_matrix<std::int64_t>(p, 0), d = cost_matrix<std::int64_t>(p, 0);
            ASSERT_EQ((long double)swap_delta_symmetric_pitched<ExactInt64>(t.data(), d.data(), x.data(), n,
                                                                            n, r, s),
                      expected)
                << r << "," << s;
          } else {
            const auto t = traffic_matrix<double>(p, 0), d = cost_matrix<double>(p, 0);
            ASSERT_NEAR(swap_delta_symmetric_pitched<RealDouble>(t.data(), d.data(), x.data(), n, n, r, s),
                        double(expected), 1e-9 * std::max(1.0L, std::fabs(cost_by_definition(p, x))))
                << r << "," << s;
          }
        }
    }
}

// Two chains from the same start and random numbers, one on the symmetric forms and one on the general ones,
// make the same moves and keep the same delta matrix at every step (integer arithmetic: the same values).
TEST(SearchDelta, SymmetricFormsMakeTheSameMovesAsTheGeneralOnes) {
  for (int n : {2, 3, 17, 100}) {
    SCOPED_TRACE(::testing::Message() << "n " << n);
    const Problem p = instance(n, true, Values::Integer, std::uint32_t(n * 3 + 1), true);
    Chain<ExactInt64> general(p, 21, false), symmetric(p, 21, true);
    const int steps = n == 100 ? 60 : 400;
    for (int step = 0; step < steps; ++step) {
      tabu_steps(SoloTeam{}, general.m, general.chain, general.r, general.s, 1);
      tabu_steps(SoloTeam{}, symmetric.m, symmetric.chain, symmetric.r, symmetric.s, 1);
      ASSERT_EQ(symmetric.p, general.p) << "step " << step;
      ASSERT_EQ(symmetric.delta, general.delta) << "step " << step;
      ASSERT_EQ(symmetric.r.cost, general.r.cost) << "step " << step;
      ASSERT_EQ((long double)symmetric.r.cost, cost_by_definition(p, symmetric.p)) << "step " << step;
    }
    EXPECT_EQ(symmetric.best, general.best);
  }
}

TEST(SearchDelta, SymmetryIsFoundOnlyWhereBothMatricesHaveIt) {
  for (Values values : {Values::Integer, Values::Real}) {
    const Problem both = instance(9, true, values, 4, true);
    EXPECT_TRUE(symmetric_matrices(both, 0, 0));
    EXPECT_TRUE(step_settings(both, 0, 0, SearchParams{}, 1).symmetric);
    EXPECT_FALSE(symmetric_matrices(instance(9, false, values, 4), 0, 0));
    // One entry off the diagonal breaks it, in either matrix.
    Problem traffic = both;
    (traffic.exact ? traffic.traffic_scaled[2 * 9 + 5] += 1 : traffic.traffic_real[2 * 9 + 5] += 1);
    EXPECT_FALSE(symmetric_matrices(traffic, 0, 0));
    Problem costs = both;
    (costs.exact ? costs.cost_scaled[7 * 9 + 1] += 1 : costs.cost_real[7 * 9 + 1] += 1);
    EXPECT_FALSE(symmetric_matrices(costs, 0, 0));
    EXPECT_FALSE(step_settings(costs, 0, 0, SearchParams{}, 1).symmetric);
  }
}

// The move by the definition (tabu_step.hpp's top): every pair ranked from its two assignments' entries of
// the tabu list, the least (rank, delta, pair) kept, the pairs taken last to first.
template <class A>
MoveChoice<typename A::Value> move_by_definition(const Chain<A>& c) {
  const int tp = tabu_pitch(c.s.n);
  const std::int32_t now = c.r.clock, long_ago = c.r.clock - c.s.aspiration;
  MoveChoice<typename A::Value> best;
  for (std::size_t k = c.pairs.size(); k-- > 0;) {
    const int i = pair_first(c.pairs[k]), j = pair_second(c.pairs[k]);
    const std::int32_t ti = c.tabu[std::size_t(i * tp + j)], tj = c.tabu[std::size_t(j * tp + i)];
    MoveChoice<typename A::Value> here;
    here.rank = ti < long_ago || tj < long_ago || std::int64_t(c.r.cost) + c.delta[k] < c.r.best ? 0
                : ti < now || tj < now                                                           ? 1
                                                                                                 : 2;
    here.delta = c.delta[k];
    here.pair = pack_pair(i, j);
    if (here.before(best)) best = here;
  }
  return best;
}

// The move a step picks from the rankings made while the delta matrix was updated is the move of the
// definition, step after step (aspiration, tabu and allowed moves all occur on this chain). In int64, and in
// int32 (whose O(1) updates offer their pairs in order, without comparing pair numbers) with small traffic in
// 8-bit matrices too, where equal deltas are common.
template <class A>
void expect_ranking_of_the_definition(Values values) {
  for (bool symmetric : {false, true}) {
    SCOPED_TRACE(symmetric ? "symmetric" : "asymmetric");
    const Problem p = instance(19, symmetric, values, 8, symmetric);
    Chain<A> c(p, 5, symmetric);
    c.s.tenure_span = 2.0 * 19;
    c.s.aspiration = 300;  // the start's assignments age past it within the run: aspired moves, then others
    int ranks[3] = {0, 0, 0};
    MoveChoice<typename A::Value> offered = rank_moves(SoloTeam{}, c.m, c.chain, c.r, c.s);
    for (int step = 0; step < 600; ++step) {
      const MoveChoice<typename A::Value> full = move_by_definition(c);
      ASSERT_EQ(offered.pair, full.pair) << "step " << step;
      ASSERT_EQ(offered.rank, full.rank) << "step " << step;
      ASSERT_EQ(offered.delta, full.delta) << "step " << step;
      ++ranks[full.rank];
      offered = tabu_step(SoloTeam{}, c.m, c.chain, c.r, c.s, offered);
    }
    EXPECT_GT(ranks[0], 0);
    EXPECT_GT(ranks[1], 0) << ranks[0] << " aspired, " << ranks[2] << " tabu";
  }
}

TEST(SearchDelta, RankingDuringTheUpdateEqualsAFullRanking) {
  {
    SCOPED_TRACE("int64");
    expect_ranking_of_the_definition<ExactInt64>(Values::Integer);
  }
  {
    SCOPED_TRACE("int32");
    expect_ranking_of_the_definition<ExactInt32>(Values::Integer);
  }
  {
    SCOPED_TRACE("int32, 8-bit matrices");
    expect_ranking_of_the_definition<ExactInt32In<std::int8_t>>(Values::Small);
  }
}

TEST(SearchDelta, ArithmeticFollowsTheBounds) {
  EXPECT_EQ(choose_arithmetic(instance(17, false, Values::Integer, 1), 0, 0), SearchArithmetic::Int32);
  EXPECT_EQ(choose_arithmetic(instance(100, false, Values::Decimal, 1), 0, 0), SearchArithmetic::Int64);
  EXPECT_EQ(choose_arithmetic(instance(17, false, Values::Real, 1), 0, 0), SearchArithmetic::Real);
}

// The stored matrices take the fewest of 8, 16 and 32 bits that hold every entry of the traffic and the path
// costs (two's complement: -128 fits 8 bits, 128 does not); a request too narrow, or any request for an
// arithmetic other than int32, is refused.
TEST(SearchDelta, MatrixBitsFollowTheEntries) {
  const auto bits = [](const Problem& p, int requested) {
    return choose_matrix_bits(p, 0, 0, choose_arithmetic(p, 0, 0), requested);
  };
  const Problem small = instance(17, false, Values::Small, 3);
  EXPECT_EQ(bits(small, 0), 8);
  EXPECT_EQ(bits(small, 16), 16);
  EXPECT_EQ(bits(small, 32), 32);
  Problem edge = small;
  edge.traffic_scaled[5] = -128;
  EXPECT_EQ(bits(edge, 0), 8);
  edge.traffic_scaled[5] = 128;
  EXPECT_EQ(bits(edge, 0), 16);
  edge.cost_scaled[7] = -32769;  // in the path costs this time
  EXPECT_EQ(bits(edge, 0), 32);
  EXPECT_EQ(bits(edge, 32), 32);
  EXPECT_THROW(bits(edge, 16), Error);
  const Problem integer = instance(17, false, Values::Integer, 1);  // traffic up to 1000
  EXPECT_EQ(bits(integer, 0), 16);
  try {
    bits(integer, 8);
    ADD_FAILURE() << "8 bits accepted for entries up to 1000";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
  }
  const Problem wide = instance(100, false, Values::Decimal, 1);  // int64 arithmetic
  EXPECT_EQ(bits(wide, 0), 0);
  EXPECT_THROW(bits(wide, 32), Error);
}

// A tabu chain's tracked cost and its best stay equal to the definition over many steps.
TEST(SearchDelta, TabuChainTracksItsCost) {
  for (Values values : {Values::Integer, Values::Decimal}) {
    const Problem p = instance(23, false, values, 5);
    Chain<ExactInt64> c(p, 9);
    for (int step = 0; step < 400; ++step) {
      tabu_steps(SoloTeam{}, c.m, c.chain, c.r, c.s, 1);
      ASSERT_EQ((long double)c.r.cost, cost_by_definition(p, c.p)) << "step " << step;
    }
    c.expect_permuted_matches();
    EXPECT_EQ((long double)c.r.best, cost_by_definition(p, c.best));
    EXPECT_LE(c.r.best, c.r.cost);
    EXPECT_EQ(c.r.iteration, 400);
  }
}

TEST(SearchDelta, DeterministicExponential) {
  for (double x = -39.9; x <= 0; x += 0.0137) EXPECT_NEAR(det_exp(x), std::exp(x), 1e-10 * std::exp(x)) << x;
  EXPECT_EQ(det_exp(-40.5), 0.0);
  EXPECT_EQ(det_exp(0.0), 1.0);
  EXPECT_EQ(det_exp(std::nan("")), 0.0);
}

}  // namespace
}  // namespace ks::topo
