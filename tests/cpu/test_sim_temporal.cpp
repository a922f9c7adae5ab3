// What the temporal variant of heat and Gray-Scott is, known without a GPU: how a step count splits into
// passes of k and shorter ones, its place in the registry (variant, Source file, the steps_per_pass parameter
// and its checks) and why the launch overlay does not draw it. Its kernel against single steps: tests/gpu.
#include <gtest/gtest.h>

#include <numeric>

#include "registry/registry.hpp"
#include "sim/pass_steps.hpp"
#include "sim/sim_geometry.hpp"
#include "sim/sim_params.hpp"
#include "support/sim_support.hpp"

namespace ks {
namespace {

// The passes that run `n` steps at k per pass.
std::vector<int> passes(int k, long long n) {
  std::vector<int> out;
  while (n > 0) {
    out.push_back(sim::steps_in_next_pass(k, n));
    n -= out.back();
  }
  return out;
}

TEST(SimTemporal, StepCountsSplitIntoWholePassesThenPowersOfTwo) {
  EXPECT_EQ(passes(4, 12), (std::vector<int>{4, 4, 4}));
  EXPECT_EQ(passes(8, 7), (std::vector<int>{4, 2, 1}));
  EXPECT_EQ(passes(8, 13), (std::vector<int>{8, 4, 1}));
  EXPECT_EQ(passes(2, 5), (std::vector<int>{2, 2, 1}));
  EXPECT_EQ(passes(1, 3), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(passes(4, 1), (std::vector<int>{1}));
  // Every count up to 100 for every k: the passes add up to it, whole passes first, at most log2(k) shorter.
  for (int k : {1, 2, 4, 8})
    for (long long n = 1; n <= 100; ++n) {
      const std::vector<int> p = passes(k, n);
      EXPECT_EQ(std::accumulate(p.begin(), p.end(), 0LL), n) << k << " " << n;
      const long long whole = n / k;
      for (long long i = 0; i < whole; ++i) EXPECT_EQ(p[std::size_t(i)], k);
      EXPECT_LE(p.size() - std::size_t(whole), std::size_t(k == 8 ? 3 : k == 4 ? 2 : k == 2 ? 1 : 0));
    }
}

TEST(SimTemporal, IsAVariantOfHeatAndGrayScottWithItsSourceAndK) {
  for (const char* kernel : {"heat", "grayscott"}) {
    SCOPED_TRACE(kernel);
    const KernelSpec& spec = KernelRegistry::builtin().get(kernel);
    const VariantSpec* temporal = nullptr;
    for (const auto& v : spec.variants)
      if (v.name == "temporal") temporal = &v;
    ASSERT_NE(temporal, nullptr);
    EXPECT_EQ(temporal->backend, Backend::Cuda);
    ASSERT_EQ(temporal->sources.size(), 1u);
    EXPECT_EQ(temporal->sources[0].path, "gpu/sim/cuda/field_temporal.cu");
    // k: 4 unless set; 1, 2, 4 and 8 accepted, others refused by the parameter set with the choices named.
    const ParamSet defaults = spec.default_params();
    EXPECT_EQ(kernel == std::string("heat") ? sim::heat_params(defaults).steps_per_pass
                                            : sim::grayscott_params(defaults).steps_per_pass,
              4);
    ParamSet p = defaults;
    p.set_assignment("steps_per_pass=8");
    EXPECT_EQ(kernel == std::string("heat") ? sim::heat_params(p).steps_per_pass
                                            : sim::grayscott_params(p).steps_per_pass,
              8);
    const std::string refused = sim_test::usage_error([&] { p.set_assignment("steps_per_pass=3"); });
    EXPECT_NE(refused.find("8"), std::string::npos) << refused;
    EXPECT_FALSE(sim::is_initial_state_param("steps_per_pass")) << "it applies to a running state";
  }
}

TEST(SimTemporal, TheLaunchOverlaySaysWhyItDoesNotDrawIt) {
  const SimGeometry g = sim_geometry("heat", "temporal", 1024, 512, {32, 8});
  EXPECT_FALSE(g.geometry);
  EXPECT_NE(g.why_not.find("overlap"), std::string::npos) << g.why_not;
}

}  // namespace
}  // namespace ks
