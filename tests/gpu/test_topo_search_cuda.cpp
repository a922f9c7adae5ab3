// The CUDA search against the CPU backend (itself checked against QAPLIB's optima and the exhaustive sweep in
// tests/cpu): with the same seed and number of chains, every chain's cost, best, random state, step count and
// placements are equal after every interval (1, 2, 4, ... steps), restarts included — tabu (one chain per
// block; cubed and band tenures; general and symmetric instances) and annealing (one per thread), int32
// (with 8-, 16- and 32-bit matrices: matrix_bits), int64 and double arithmetic, shared and global memory
// layouts. Then the GPU's own choices: a full GPU of
// chains, optima of small instances, reproducible seeds.
// Skips without a device.
#include <gtest/gtest.h>

#include <filesystem>

#include "session/topology/topology_document.hpp"
#include "support/shared_pool.hpp"
#include "support/test_support.hpp"
#include "support/topo_instances.hpp"
#include "topo/inputs/qaplib.hpp"
#include "topo/search/search.hpp"

namespace ks::topo {
namespace {

using test::pool;

namespace fs = std::filesystem;

CudaContext& context() {
  static std::unique_ptr<CudaContext> c = CudaContext::create(0);
  return *c;
}

struct Case {
  const char* name;
  int n;
  SearchAlgorithm algorithm;
  bool integer;
  std::int64_t max_traffic;  // large values: int64 arithmetic
  int chains;
  int intervals;
  TenureRule tenure_rule = TenureRule::Cubed;
  bool symmetric = false;  // symmetric traffic and path costs (with a diagonal): the symmetric delta forms
  int matrix_bits = 0;     // 0: the fewest that hold the entries (8 up to 127, 16 up to 32767)
};

SearchRequest request_for(const Case& c) {
  SearchRequest r;
  r.params.algorithm = c.algorithm;
  r.params.chains = c.chains;
  r.params.sync = 64;
  r.params.tenure_rule = c.tenure_rule;
  r.params.tabu_stall = 0.2;  // restarts within the trace
  r.params.cycle = 0.5;       // short cooling cycles ...
  r.params.anneal_stall = 1;  // ... and restarts
  r.params.matrix_bits = c.matrix_bits;
  r.seed = 1234 + std::uint64_t(c.n);
  r.iterations = 1;  // unused by trace_chains
  return r;
}

void expect_same_trace(const Case& c) {
  SCOPED_TRACE(c.name);
  TrafficSeries traffic = test::random_traffic(c.n, 1, std::uint32_t(c.n), c.integer, c.max_traffic);
  Configuration costs = test::random_costs(c.n, std::uint32_t(c.n) + 7, c.integer, c.symmetric);
  if (c.symmetric) test::make_symmetric(traffic, costs, c.n);
  const Problem p = make_problem(traffic, {costs});
  SearchRequest r = request_for(c);
  const auto cpu = trace_chains(p, r, c.intervals, pool<0>(), nullptr);
  r.backend = Backend::Cuda;
  const auto gpu = trace_chains(p, r, c.intervals, pool<0>(), &context());
  ASSERT_EQ(cpu.size(), gpu.size());
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    ASSERT_EQ(cpu[i].size(), std::size_t(c.chains));
    ASSERT_EQ(gpu[i].size(), std::size_t(c.chains));
    for (int k = 0; k < c.chains; ++k) {
      const ChainSnapshot &a = cpu[i][std::size_t(k)], &b = gpu[i][std::size_t(k)];
      ASSERT_EQ(b.iteration, a.iteration) << "interval " << i << " chain " << k;
      ASSERT_EQ(b.rng, a.rng) << "interval " << i << " chain " << k;
      ASSERT_EQ(b.cost_i, a.cost_i) << "interval " << i << " chain " << k;
      ASSERT_EQ(b.cost_d, a.cost_d) << "interval " << i << " chain " << k;
      ASSERT_EQ(b.best_i, a.best_i) << "interval " << i << " chain " << k;
      ASSERT_EQ(b.best_d, a.best_d) << "interval " << i << " chain " << k;
      ASSERT_EQ(b.best_iteration, a.best_iteration) << "interval " << i << " chain " << k;
      ASSERT_EQ(b.tenure, a.tenure) << "interval " << i << " chain " << k;
      ASSERT_EQ(b.placement, a.placement) << "interval " << i << " chain " << k;
      ASSERT_EQ(b.best_placement, a.best_placement) << "interval " << i << " chain " << k;
    }
  }
}

// Small cases: also the set that runs under compute-sanitizer (memcheck, racecheck).
TEST(SearchCudaSmall, ChainsEqualTheCpuStepByStep) {
  KS_REQUIRE_GPU();
  const Case cases[] = {
      {"tabu n=5 int32 (16-bit matrices)", 5, SearchAlgorithm::Tabu, true, 1000, 3, 8},
      {"tabu n=13 int64", 13, SearchAlgorithm::Tabu, true, 1000000000, 5, 9},
      {"tabu n=11 double", 11, SearchAlgorithm::Tabu, false, 1000, 4, 9},
      {"tabu n=17 int32 band tenures", 17, SearchAlgorithm::Tabu, true, 1000, 3, 10, TenureRule::Band},
      {"tabu n=14 int32 symmetric", 14, SearchAlgorithm::Tabu, true, 1000, 4, 9, TenureRule::Cubed, true},
      {"tabu n=14 int32 symmetric 8-bit matrices", 14, SearchAlgorithm::Tabu, true, 127, 4, 9,
       TenureRule::Cubed, true},
      {"tabu n=9 int32 8-bit matrices", 9, SearchAlgorithm::Tabu, true, 127, 3, 9},
      {"tabu n=14 int32 symmetric 32-bit matrices", 14, SearchAlgorithm::Tabu, true, 100, 4, 9,
       TenureRule::Cubed, true, 32},
      {"tabu n=10 double symmetric", 10, SearchAlgorithm::Tabu, false, 1000, 3, 9, TenureRule::Cubed, true},
      {"anneal n=7 int32", 7, SearchAlgorithm::Anneal, true, 1000, 37, 10},
      {"anneal n=12 double", 12, SearchAlgorithm::Anneal, false, 1000, 133, 10},
      {"anneal n=9 int64", 9, SearchAlgorithm::Anneal, true, 1000000000, 5, 10},
  };
  for (const Case& c : cases) expect_same_trace(c);
}

// Larger n: the tabu list, then the matrices, leave shared memory (sooner with 32-bit matrices); annealing
// keeps its placements in global memory past n = 256.
TEST(SearchCuda, ChainsEqualTheCpuWithGlobalMemory) {
  KS_REQUIRE_GPU();
  const Case cases[] = {
      {"tabu n=130 int32 8-bit (tabu list global)", 130, SearchAlgorithm::Tabu, true, 100, 2, 8},
      {"tabu n=101 int32 band tenures 32-bit (delta matrix global)", 101, SearchAlgorithm::Tabu, true, 100, 2,
       12, TenureRule::Band, false, 32},
      {"tabu n=200 int64 (matrices and tabu list global)", 200, SearchAlgorithm::Tabu, true, 1000000000, 2,
       7},
      {"tabu n=101 int32 symmetric 32-bit (delta matrix global)", 101, SearchAlgorithm::Tabu, true, 100, 2,
       12, TenureRule::Cubed, true, 32},
      {"tabu n=101 int32 symmetric 8-bit (everything shared)", 101, SearchAlgorithm::Tabu, true, 100, 2, 12,
       TenureRule::Cubed, true},
      {"tabu n=150 int32 16-bit (delta matrix and tabu list global)", 150, SearchAlgorithm::Tabu, true, 1000,
       2, 7},
      {"anneal n=300 int32 (placements global)", 300, SearchAlgorithm::Anneal, true, 100, 130, 8},
  };
  for (const Case& c : cases) expect_same_trace(c);
}

TEST(SearchCuda, FillsTheGpuAndFindsSmallOptima) {
  KS_REQUIRE_GPU();
  const fs::path dir = fs::path(KS_SHARED_DATA_DIR) / "qaplib";
  if (!fs::exists(dir / "nug12.dat")) GTEST_SKIP() << "no ../shared/data";
  struct Known {
    const char* name;
    std::int64_t optimum;
  };
  for (const Known& k :
       {Known{"nug12", 578}, Known{"chr12a", 9552}, Known{"tai12a", 224416}, Known{"chr15a", 9896}}) {
    const QaplibInstance q = read_qaplib(dir / (std::string(k.name) + ".dat"));
    const Problem p = make_problem(traffic_from_qaplib(q), {configuration_from_qaplib(q)});
    for (SearchAlgorithm algorithm : {SearchAlgorithm::Tabu, SearchAlgorithm::Anneal}) {
      if (algorithm == SearchAlgorithm::Anneal && k.name[0] == 'c')
        continue;  // annealing is weak on chr's trees
      SearchRequest r;
      r.params.algorithm = algorithm;
      r.backend = Backend::Cuda;
      r.time_s = 10;
      r.target = double(k.optimum);
      const SearchResult res = search(p, r, {}, pool<0>(), &context());
      EXPECT_EQ(res.best().best.scaled, k.optimum) << k.name << " " << to_string(algorithm);
      EXPECT_GE(res.chains, context().device().sm_count) << res.launch;
      EXPECT_FALSE(res.launch.empty());
      std::printf("%s %s: %lld after %.3f s, %d chains, %.3g swap evaluations/s (%s)\n", k.name,
                  to_string(algorithm), static_cast<long long>(res.best().best.scaled),
                  res.best().time_to_best_s, res.chains, res.evaluations_per_second, res.launch.c_str());
    }
  }
}

TEST(SearchCuda, SeededRunsRepeat) {
  KS_REQUIRE_GPU();
  const Problem p = make_problem(test::random_traffic(24, 2, 5, true), {test::random_costs(24, 6)});
  for (SearchAlgorithm algorithm : {SearchAlgorithm::Tabu, SearchAlgorithm::Anneal}) {
    SearchRequest r;
    r.params.algorithm = algorithm;
    r.backend = Backend::Cuda;
    r.iterations = algorithm == SearchAlgorithm::Tabu ? 3000 : 50000;
    const SearchResult a = search(p, r, {}, pool<0>(), &context());
    const SearchResult b = search(p, r, {}, pool<0>(), &context());
    EXPECT_EQ(a.best().best.scaled, b.best().best.scaled);
    EXPECT_EQ(a.best().placement, b.best().placement);
    EXPECT_EQ(a.best().iterations_to_best, b.best().iterations_to_best);
    EXPECT_EQ(a.best().restarts, b.best().restarts);
  }
}

// n = 1024: one tabu chain per block with everything but the placement in global memory.
TEST(SearchCuda, ThousandNodes) {
  KS_REQUIRE_GPU();
  const Problem p = make_problem(test::random_traffic(1024, 1, 3, true, 9), {test::random_costs(1024, 4)});
  for (SearchAlgorithm algorithm : {SearchAlgorithm::Tabu, SearchAlgorithm::Anneal}) {
    SearchRequest r;
    r.params.algorithm = algorithm;
    r.params.chains = algorithm == SearchAlgorithm::Tabu ? 8 : 1024;
    r.backend = Backend::Cuda;
    r.iterations = algorithm == SearchAlgorithm::Tabu ? 20 : 2000;
    const SearchResult res =
        search(p, r, {}, pool<0>(), &context());  // checks the tracked cost against the definition
    EXPECT_EQ(res.best().placement.size(), 1024u);
    EXPECT_LE(res.best().best.scaled, res.best().curve.front().best.scaled);
  }
}

// The Topology panel's document runs the CUDA search like the CPU one.
TEST(SearchCuda, TopologyDocumentSearchesOnTheGpu) {
  KS_REQUIRE_GPU();
  const fs::path file = fs::path(KS_SHARED_DATA_DIR) / "qaplib" / "nug12.dat";
  if (!fs::exists(file)) GTEST_SKIP() << "no ../shared/data";
  app::TopologyDocument doc(app::TopologyDocument::Options{2, true});
  doc.open_traffic(file);
  doc.settings().placements = "search";
  doc.settings().backend = Backend::Cuda;
  doc.settings().search.time_s = 10;
  doc.settings().search.target = 578;
  doc.run();
  doc.wait_idle();
  ASSERT_NE(doc.run_result(), nullptr) << doc.last_error();
  EXPECT_EQ(doc.run_result()->search->best().best.scaled, 578);
  EXPECT_EQ(doc.run_result()->search->device, context().device().name);
  EXPECT_EQ(doc.search_live().best.scaled, 578);
}

}  // namespace
}  // namespace ks::topo
