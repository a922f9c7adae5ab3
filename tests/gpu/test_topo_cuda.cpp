// The CUDA topology sweep against the CPU backend (itself checked against brute force in tests/cpu): random
// instances n = 5 .. 10 with several timestamps and configurations, integer and real-valued traffic, both
// variants, every pass, index ranges, samples and given placements. Skips without a device.
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"
#include "support/shared_pool.hpp"
#include "support/topo_cuda_sweeps.hpp"
#include "support/test_support.hpp"
#include "support/topo_instances.hpp"
#include "topo/evaluation.hpp"
#include "topo/permutation.hpp"
#include "topo/sweep/sweep_plan.hpp"

namespace ks::topo {
namespace {

using test::pool;
using test::sweep_on;

Problem random_problem(int n, int timestamps, int configs, std::uint32_t seed, bool integer,
                       std::int64_t max_traffic = 1000) {
  std::vector<Configuration> cs;
  for (int c = 0; c < configs; ++c)
    cs.push_back(test::random_costs(n, seed * 17 + std::uint32_t(c), integer));
  return make_problem(test::random_traffic(n, timestamps, seed, integer, max_traffic), cs);
}

// `identical`: every field equal (exact problems, and the delta variant on real ones: same operations in the
// same order); otherwise the costs within rounding and the means within 1e-12.
void expect_same(const EvalResult& gpu, const EvalResult& cpu, bool identical) {
  ASSERT_EQ(gpu.slices.size(), cpu.slices.size());
  for (std::size_t k = 0; k < cpu.slices.size(); ++k) {
    const SliceResult &g = gpu.slices[k], &c = cpu.slices[k];
    SCOPED_TRACE(::testing::Message() << "slice " << c.slice << " configuration " << c.configuration);
    EXPECT_EQ(g.count, c.count);
    if (identical) {
      EXPECT_EQ(g.min.scaled, c.min.scaled);
      EXPECT_EQ(g.min.value, c.min.value);
      EXPECT_EQ(g.max.value, c.max.value);
      EXPECT_EQ(g.argmin, c.argmin);
      EXPECT_EQ(g.placement, c.placement);
      if (cpu.exact)
        EXPECT_EQ(g.mean, c.mean);
      else
        EXPECT_NEAR(g.mean, c.mean, 1e-12 * std::fabs(c.mean));  // sums of doubles in another order
      ASSERT_EQ(g.histogram.has_value(), c.histogram.has_value());
      if (c.histogram) {
        EXPECT_EQ(g.histogram->counts, c.histogram->counts);
      }
    } else {
      EXPECT_NEAR(g.min.value, c.min.value, 1e-12 * std::fabs(c.max.value));
      EXPECT_NEAR(g.max.value, c.max.value, 1e-12 * std::fabs(c.max.value));
      EXPECT_NEAR(g.mean, c.mean, 1e-12 * std::fabs(c.mean));
    }
  }
  ASSERT_EQ(gpu.top.size(), cpu.top.size());
  for (std::size_t i = 0; i < cpu.top.size(); ++i) {
    if (identical) {
      EXPECT_EQ(gpu.top[i].cost.value, cpu.top[i].cost.value) << "top " << i;
      EXPECT_EQ(gpu.top[i].index, cpu.top[i].index) << "top " << i;
      EXPECT_EQ(gpu.top[i].configuration, cpu.top[i].configuration) << "top " << i;
    } else {
      EXPECT_NEAR(gpu.top[i].cost.value, cpu.top[i].cost.value, 1e-12 * std::fabs(cpu.top[i].cost.value));
    }
  }
  EXPECT_EQ(gpu.evaluated_end, cpu.evaluated_end);
  EXPECT_EQ(gpu.placements, cpu.placements);
}

struct Case {
  int n, timestamps, configs;
  bool integer;
  std::int64_t max_traffic;
};

class CudaVsCpu : public ::testing::TestWithParam<Case> {};

TEST_P(CudaVsCpu, EveryPassMatches) {
  KS_REQUIRE_GPU();
  const Case k = GetParam();
  const Problem p =
      random_problem(k.n, k.timestamps, k.configs, std::uint32_t(300 + k.n), k.integer, k.max_traffic);
  EvalRequest req;
  req.top_k = 9;
  if (k.n <= 7) req.cube_limit_bytes = 64 << 20;
  const EvalResult cpu = sweep_on(p, req, Backend::Cpu, "");
  for (const char* variant : {"delta", "naive"}) {
    SCOPED_TRACE(variant);
    const EvalResult gpu = sweep_on(p, req, Backend::Cuda, variant);
    // Which arithmetic the GPU chose, from the largest possible cost (topo_cuda.cu): each is checked here.
    const char* arithmetic = !p.exact                                  ? "real, in double"
                             : p.cost_bound < (std::uint64_t(1) << 21) ? "exact in float"
                             : p.cost_bound < (std::uint64_t(1) << 50) ? "exact in double"
                                                                       : "exact in 64-bit integers";
    EXPECT_NE(gpu.timing.launch.find(arithmetic), std::string::npos) << gpu.timing.launch;
    expect_same(gpu, cpu, p.exact || std::string(variant) == "delta");
    if (p.exact) {
      EXPECT_EQ(gpu.cube_scaled, cpu.cube_scaled);
    } else if (std::string(variant) == "delta") {
      EXPECT_EQ(gpu.cube_real, cpu.cube_real);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, CudaVsCpu,
    ::testing::Values(Case{5, 3, 3, true, 1000}, Case{6, 4, 2, true, 1000}, Case{7, 2, 5, true, 1000},
                      Case{8, 5, 3, true, 1000}, Case{9, 2, 2, true, 1000}, Case{10, 1, 1, true, 1000},
                      Case{8, 3, 2, true, std::int64_t(1) << 44},  // costs beyond 2^50: the int64 path
                      Case{12, 1, 1, true, 100000},  // the double path; the specialised n = 12 walker
                      Case{12, 1, 1, true, 100},     // the float path of the n = 12 walker
                      Case{6, 3, 2, false, 1000}, Case{8, 2, 3, false, 1000}, Case{10, 1, 2, false, 1000}),
    [](const auto& info) {
      const Case& c = info.param;
      return "n" + std::to_string(c.n) + "_t" + std::to_string(c.timestamps) + "_c" +
             std::to_string(c.configs) +
             (c.integer ? (c.max_traffic > 1000000 ? "_int64" : c.max_traffic < 1000 ? "_small_int" : "_int")
                        : "_real");
    });

TEST(TopoCuda, SplitSweepEqualsWholeSweep) {
  KS_REQUIRE_GPU();
  for (bool integer : {true, false}) {
    const Problem p = random_problem(9, 2, 2, 41, integer);
    EvalRequest whole;
    const EvalResult all = sweep_on(p, whole, Backend::Cuda, "delta");
    const std::uint64_t cuts[] = {0, 12345, 200000, factorial(9)};
    for (int s = 0; s < p.slices; ++s)
      for (int c = 0; c < p.configs; ++c) {
        std::int64_t lo_i = INT64_MAX;
        double lo_d = INFINITY;
        std::uint64_t arg = 0, count = 0;
        for (std::size_t i = 0; i + 1 < std::size(cuts); ++i) {
          EvalRequest part;
          part.histogram = false;
          part.range_begin = cuts[i];
          part.range_end = cuts[i + 1];
          const EvalResult r = sweep_on(p, part, Backend::Cuda, "delta");
          const EvalResult cpu = sweep_on(p, part, Backend::Cpu, "");
          expect_same(r, cpu, true);
          const SliceResult& x = r.at(s, c);
          count += x.count;
          if (integer ? x.min.scaled < lo_i : x.min.value < lo_d)
            lo_i = x.min.scaled, lo_d = x.min.value, arg = x.argmin;
        }
        EXPECT_EQ(count, all.at(s, c).count);
        EXPECT_EQ(arg, all.at(s, c).argmin);
        if (integer)
          EXPECT_EQ(lo_i, all.at(s, c).min.scaled);
        else
          EXPECT_EQ(lo_d, all.at(s, c).min.value);  // the plan does not depend on the range: same bits
      }
  }
}

TEST(TopoCuda, RangeOfALargeSweepMatchesTheCpu) {
  KS_REQUIRE_GPU();
  const Problem p = random_problem(12, 1, 1, 12, true, 100000);
  EvalRequest req;
  req.range_begin = 123456789;
  req.range_end = 123456789 + 3000000;
  req.top_k = 5;
  const EvalResult cpu = sweep_on(p, req, Backend::Cpu, "");
  expect_same(sweep_on(p, req, Backend::Cuda, "delta"), cpu, true);
  expect_same(sweep_on(p, req, Backend::Cuda, "naive"), cpu, true);
}

// The float Stats walk takes only runs that no range end cuts; the cut ones (the first and last of a range, or
// one run cut at both ends) run apart through the kernel of every pass. Ranges that cut runs, one that cuts a
// single run at both ends, and one on run boundaries all match the CPU bit for bit.
TEST(TopoCuda, FloatStatsOverCutRunsMatchesTheCpu) {
  KS_REQUIRE_GPU();
  const Problem p = random_problem(12, 2, 3, 21, true, 100);
  const std::uint64_t run_size = plan_sweep(12, 0, factorial(12), std::uint64_t(p.pairs())).run_size;
  const std::pair<std::uint64_t, std::uint64_t> ranges[] = {
      {123456789, 123456789 + 3000000},            // cut at both ends, whole runs between
      {7 * run_size + 5, 7 * run_size + 99},       // one run, cut at both ends
      {3 * run_size, 40 * run_size},               // run boundaries: nothing cut
      {0, 2 * run_size + 1}};                      // the last run cut
  for (const auto& [begin, end] : ranges) {
    SCOPED_TRACE(::testing::Message() << "range " << begin << ":" << end);
    EvalRequest req;
    req.range_begin = begin;
    req.range_end = end;
    req.histogram = false;
    const EvalResult gpu = sweep_on(p, req, Backend::Cuda, "delta");
    EXPECT_NE(gpu.timing.launch.find("exact in float"), std::string::npos) << gpu.timing.launch;
    expect_same(gpu, sweep_on(p, req, Backend::Cpu, ""), true);
  }
}

TEST(TopoCuda, SamplesAndGivenPlacementsMatchTheCpu) {
  KS_REQUIRE_GPU();
  for (bool integer : {true, false}) {
    const Problem p = random_problem(11, 3, 2, 5, integer);
    EvalRequest sample;
    sample.mode = PlacementMode::Sample;
    sample.samples = 100000;
    sample.seed = 3;
    sample.top_k = 4;
    expect_same(sweep_on(p, sample, Backend::Cuda, "delta"), sweep_on(p, sample, Backend::Cpu, ""), true);
    EvalRequest given;
    given.mode = PlacementMode::Given;
    given.placements = {placement_of_index(0, 11), placement_of_index(777, 11),
                        placement_of_index(39916799, 11)};
    expect_same(sweep_on(p, given, Backend::Cuda, "delta"), sweep_on(p, given, Backend::Cpu, ""), true);
  }
}

// A sampled placement is built in a thread's own array: past 16 (and 20) nodes it once wrote beyond it.
TEST(TopoCuda, SamplesOfFortyNodesMatchTheCpu) {
  KS_REQUIRE_GPU();
  const Problem p = random_problem(40, 1, 2, 9, true);
  EvalRequest sample;
  sample.mode = PlacementMode::Sample;
  sample.samples = 50000;
  sample.seed = 5;
  sample.top_k = 3;
  expect_same(sweep_on(p, sample, Backend::Cuda, "delta"), sweep_on(p, sample, Backend::Cpu, ""), true);
}

TEST(TopoCuda, UnknownVariantIsAUsageError) {
  KS_REQUIRE_GPU();
  const Problem p = random_problem(5, 1, 1, 1, true);
  EvalRequest r;
  r.backend = Backend::Cuda;
  r.variant = "tiled";
  try {
    evaluate(p, r, {}, pool<0>(), &test::topo_context());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
  }
}

}  // namespace
}  // namespace ks::topo
