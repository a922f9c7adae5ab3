// The placement search on the CPU backend (the reference): QAPLIB's published optima for every instance with
// n <= 12 in ../shared/data/qaplib, nug15 and chr15a within seconds, the exhaustive sweep's optimum on a
// problem with timestamps and configurations, reproducibility (same seed, any thread count), cancellation,
// n up to 1024, and bad requests.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/error.hpp"
#include "support/shared_data.hpp"
#include "support/qaplib_optima.hpp"
#include "support/shared_pool.hpp"
#include "support/topo_instances.hpp"
#include "topo/inputs/qaplib.hpp"
#include "topo/search/search.hpp"

namespace ks::topo {
namespace {

using test::data;
using test::pool;

namespace fs = std::filesystem;

using test::qaplib_problem;

SearchRequest tabu(std::uint64_t iterations, int chains = 2) {
  SearchRequest r;
  r.params.chains = chains;
  r.iterations = iterations;
  return r;
}

using Known = test::KnownOptimum;
constexpr const auto& kSmall = test::kSmallQaplibOptima;

TEST(Search, TabuFindsThePublishedOptimumOfEverySmallQaplibInstance) {
  KS_REQUIRE_DATA(data("qaplib/nug12.dat"));
  for (const auto& [q, optimum] : test::small_qaplib_instances()) {
    const Problem p = make_problem(traffic_from_qaplib(q), {configuration_from_qaplib(q)});
    // No target: the search is not told the answer and must stop at its iteration limit holding it.
    const SearchResult r = search(p, tabu(30000), {}, pool(), nullptr);
    EXPECT_EQ(r.best().best.scaled, optimum) << q.name;
    EXPECT_EQ(r.stopped_by, "iterations");
    EXPECT_TRUE(r.complete);
  }
}

TEST(Search, AnnealingFindsTheOptimumOfSmallInstances) {
  KS_REQUIRE_DATA(data("qaplib/nug12.dat"));
  for (const Known& k : {kSmall[4], kSmall[7]}) {  // nug12, tai10a
    SearchRequest r = tabu(600000);
    r.params.algorithm = SearchAlgorithm::Anneal;
    const SearchResult res =
        search(qaplib_problem(data(std::string("qaplib/") + k.name + ".dat")), r, {}, pool(), nullptr);
    EXPECT_EQ(res.best().best.scaled, k.optimum) << k.name;
  }
}

TEST(Search, Nug15AndChr15aWithinSeconds) {
  KS_REQUIRE_DATA(data("qaplib/nug15.dat"));
  for (const Known& k : {Known{"nug15", 1150}, Known{"chr15a", 9896}}) {
    SearchRequest r;
    r.params.chains = 2;
    r.time_s = 20;  // a generous limit for loaded CI machines; it takes well under a second here
    r.target = double(k.optimum);
    const SearchResult res =
        search(qaplib_problem(data(std::string("qaplib/") + k.name + ".dat")), r, {}, pool(), nullptr);
    EXPECT_EQ(res.best().best.scaled, k.optimum) << k.name;
    EXPECT_EQ(res.stopped_by, "target") << k.name;
    EXPECT_TRUE(res.best().reached_target);
    EXPECT_LT(res.best().time_to_best_s, 10.0) << k.name;
    EXPECT_GT(res.iterations_per_second, 0);
    EXPECT_GT(res.evaluations_per_second, res.iterations_per_second);  // a tabu move evaluates every pair
    std::printf("%s: optimum %lld in %.3f s (%llu iterations)\n", k.name, static_cast<long long>(k.optimum),
                res.best().time_to_best_s, static_cast<unsigned long long>(res.best().iterations_to_best));
  }
}

// Several timestamps and configurations: each configuration's search optimises the summed traffic and finds
// the exhaustive sweep's optimum (n = 9); the cost on each timestamp is the sweep's cost of that placement.
TEST(Search, TimestampsAndConfigurationsMatchTheExhaustiveSweep) {
  const Problem p =
      make_problem(test::random_traffic(9, 3, 41, true, 50),
                   {test::random_costs(9, 1), test::random_costs(9, 2), test::random_costs(9, 3)});
  for (SearchAlgorithm algorithm : {SearchAlgorithm::Tabu, SearchAlgorithm::Anneal}) {
    SearchRequest r = tabu(algorithm == SearchAlgorithm::Tabu ? 5000 : 300000);
    r.params.algorithm = algorithm;
    const SearchResult res = search(p, r, {}, pool(), nullptr);
    ASSERT_EQ(res.configurations.size(), 3u);
    EXPECT_EQ(res.slice, 3);  // the summed slice

    EvalRequest all;
    all.histogram = false;
    const EvalResult sweep = evaluate(p, all, {}, pool(), nullptr);
    const auto over_time = best_over_time(sweep);
    ASSERT_TRUE(over_time);
    int best_configuration = 0;
    for (int c = 0; c < 3; ++c) {
      const ConfigurationSearch& cs = res.configurations[std::size_t(c)];
      EXPECT_EQ(cs.configuration, c);
      EXPECT_EQ(cs.best.scaled, sweep.at(3, c).min.scaled)
          << "configuration " << c << " " << to_string(algorithm);
      EvalRequest given;
      given.mode = PlacementMode::Given;
      given.placements = {cs.placement};
      given.histogram = false;
      const EvalResult one = evaluate(p, given, {}, pool(), nullptr);
      ASSERT_EQ(cs.slice_costs.size(), 4u);
      for (int s = 0; s < 4; ++s) EXPECT_EQ(cs.slice_costs[std::size_t(s)].scaled, one.at(s, c).min.scaled);
      if (sweep.at(3, c).min.scaled < sweep.at(3, best_configuration).min.scaled) best_configuration = c;
    }
    EXPECT_EQ(res.best_configuration, best_configuration);
    EXPECT_EQ(res.best().best.scaled, over_time->cost.scaled);

    const EvalResult as_sweep = as_eval_result(res);
    EXPECT_EQ(as_sweep.mode, PlacementMode::Given);
    EXPECT_EQ(best_over_time(as_sweep)->cost.scaled, over_time->cost.scaled);
    EXPECT_EQ(as_sweep.at(1, 2).placement, res.configurations[2].placement);
  }
}

TEST(Search, SeededRunsAreReproducibleWhateverTheThreads) {
  KS_REQUIRE_DATA(data("qaplib/nug15.dat"));
  const Problem p = qaplib_problem(data("qaplib/nug15.dat"));
  ThreadPool one(1);
  for (SearchAlgorithm algorithm : {SearchAlgorithm::Tabu, SearchAlgorithm::Anneal}) {
    SearchRequest r = tabu(algorithm == SearchAlgorithm::Tabu ? 3000 : 100000, 5);
    r.params.algorithm = algorithm;
    r.params.sync = algorithm == SearchAlgorithm::Tabu ? 100 : 5000;
    r.params.tabu_stall = 2;  // restarts happen
    r.seed = 77;
    const SearchResult a = search(p, r, {}, pool(), nullptr);
    const SearchResult b = search(p, r, {}, one, nullptr);
    ASSERT_EQ(a.configurations.size(), 1u);
    const ConfigurationSearch &x = a.configurations[0], &y = b.configurations[0];
    EXPECT_EQ(x.best.scaled, y.best.scaled);
    EXPECT_EQ(x.placement, y.placement);
    EXPECT_EQ(x.iterations_to_best, y.iterations_to_best);
    EXPECT_EQ(x.restarts, y.restarts);
    if (algorithm == SearchAlgorithm::Tabu) {
      EXPECT_GT(x.restarts, 0u);
    }
    ASSERT_EQ(x.curve.size(), y.curve.size());
    for (std::size_t k = 0; k < x.curve.size(); ++k) {
      EXPECT_EQ(x.curve[k].best.scaled, y.curve[k].best.scaled);
      EXPECT_EQ(x.curve[k].iterations, y.curve[k].iterations);
    }
    // The chains' states too, interval by interval.
    EXPECT_EQ(trace_chains(p, r, 3, pool(), nullptr), trace_chains(p, r, 3, one, nullptr));
  }
}

TEST(Search, CancelKeepsTheBestSoFar) {
  KS_REQUIRE_DATA(data("qaplib/nug15.dat"));
  const Problem p = qaplib_problem(data("qaplib/nug15.dat"));
  std::atomic<bool> cancel{false};
  SearchControl control;
  control.cancel = &cancel;
  int reports = 0;
  control.progress = [&](const SearchProgress& pr) {
    ++reports;
    EXPECT_FALSE(pr.placement->empty());
    if (reports == 2) cancel = true;
  };
  SearchRequest r;
  r.params.chains = 2;
  r.params.sync = 50;
  r.time_s = 60;
  const SearchResult res = search(p, r, control, pool(), nullptr);
  EXPECT_EQ(reports, 2);
  EXPECT_FALSE(res.complete);
  EXPECT_EQ(res.stopped_by, "cancel");
  ASSERT_EQ(res.configurations.size(), 1u);
  EXPECT_EQ(res.configurations[0].iterations, 2u * (1 + 2));  // intervals of 1, then 2 steps, 2 chains
  EXPECT_EQ(res.best().best.scaled, placement_cost(p, 0, 0, res.best().placement).scaled);
}

// (The tabu search's start at n = 1024 is O(n^3), seconds on one core: tests/gpu runs it.)
TEST(Search, LargeInstancesUpTo1024Nodes) {
  for (int n : {300, 1024}) {
    const Problem p = make_problem(test::random_traffic(n, 1, 3, true, 9), {test::random_costs(n, 4)});
    for (SearchAlgorithm algorithm : {SearchAlgorithm::Tabu, SearchAlgorithm::Anneal}) {
      if (n > 300 && algorithm == SearchAlgorithm::Tabu) continue;
      SearchRequest r = tabu(algorithm == SearchAlgorithm::Tabu ? 2 : 20000, 1);
      r.params.algorithm = algorithm;
      const SearchResult res =
          search(p, r, {}, pool(), nullptr);  // the tracked cost is checked against the definition
      const std::vector<int>& x = res.best().placement;
      ASSERT_EQ(x.size(), std::size_t(n));
      long double by_definition = 0;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          by_definition +=
              (long double)p.cost_scaled[std::size_t(i * n + j)] *
              (long double)p.traffic_scaled[std::size_t(x[std::size_t(i)] * n + x[std::size_t(j)])];
      EXPECT_EQ((long double)res.best().best.scaled, by_definition);
      EXPECT_LE(res.best().best.scaled, res.best().curve.front().best.scaled);
    }
  }
}

TEST(Search, BadRequestsAreRefusedBeforeAnyWork) {
  const Problem p = make_problem(test::random_traffic(6, 1, 3, true), {test::random_costs(6, 4)});
  auto refused = [&](const Problem& problem, SearchRequest r, ErrorKind kind, const std::string& words,
                     Backend backend = Backend::Cpu) {
    r.backend = backend;
    try {
      search(problem, r, {}, pool(), nullptr);
      ADD_FAILURE() << "accepted: " << words;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), kind) << e.full_message();
      EXPECT_NE(e.full_message().find(words), std::string::npos) << e.full_message();
    }
  };
  Problem one = p;
  one.n = 1;
  refused(one, tabu(10), ErrorKind::Usage, "no placement to search");
  Problem zero = make_problem(test::random_traffic(6, 1, 3, true, 0), {test::random_costs(6, 4)});
  refused(zero, tabu(10), ErrorKind::Usage, "zero everywhere");
  refused(p, tabu(0), ErrorKind::Usage, "no stop");
  SearchRequest bad_time = tabu(0);
  bad_time.time_s = -1;
  refused(p, bad_time, ErrorKind::Usage, "not a duration");
  SearchRequest nan_target = tabu(10);
  nan_target.target = std::nan("");
  refused(p, nan_target, ErrorKind::Usage, "not a number");
  SearchRequest bad_tenure = tabu(10);
  bad_tenure.params.tenure = 0;
  refused(p, bad_tenure, ErrorKind::Usage, "tenure");
  SearchRequest odd_bits = tabu(10);
  odd_bits.params.matrix_bits = 12;
  refused(p, odd_bits, ErrorKind::Usage, "matrix_bits");
  SearchRequest narrow = tabu(10);  // the traffic goes up to 1000
  narrow.params.matrix_bits = 8;
  refused(p, narrow, ErrorKind::Usage, "cannot hold");
  refused(p, tabu(10), ErrorKind::Device, "CUDA", Backend::Cuda);
}

}  // namespace
}  // namespace ks::topo
