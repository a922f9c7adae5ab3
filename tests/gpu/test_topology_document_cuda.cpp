// The Topology panel's document on the CUDA backend: the sample's sweep gives the same heatmap, the same top
// placements and the same link loads as on the CPU. Skips without a device.
#include <gtest/gtest.h>

#include "session/topology/topology_document.hpp"
#include "support/test_support.hpp"

namespace ks::app {
namespace {

TEST(TopologyDocumentCuda, SampleSweepMatchesTheCpu) {
  KS_REQUIRE_GPU();
  TopologyDocument cpu(TopologyDocument::Options{0, false}), gpu(TopologyDocument::Options{0, true});
  cpu.open_sample();
  cpu.wait_idle();
  gpu.open_sample();  // runs on the CPU first (the sample's default); then again on CUDA
  gpu.wait_idle();
  gpu.settings().backend = Backend::Cuda;
  gpu.run();
  gpu.wait_idle();
  ASSERT_NE(cpu.run_result(), nullptr) << cpu.last_error();
  ASSERT_NE(gpu.run_result(), nullptr) << gpu.last_error();
  EXPECT_NE(gpu.run_result()->result.timing.device.find("CPU"), 0u) << gpu.run_result()->result.timing.device;
  const CostGrid a = cpu.cost_grid(), b = gpu.cost_grid();
  ASSERT_EQ(a.values.size(), b.values.size());
  for (std::size_t i = 0; i < a.values.size(); ++i) EXPECT_EQ(a.values[i], b.values[i]) << "cell " << i;
  const auto& ta = cpu.run_result()->result.top;
  const auto& tb = gpu.run_result()->result.top;
  ASSERT_EQ(ta.size(), tb.size());
  for (std::size_t i = 0; i < ta.size(); ++i)
    EXPECT_EQ(ta[i].cost.scaled, tb[i].cost.scaled) << "rank " << i + 1;
  gpu.select(3, 2);
  cpu.select(3, 2);
  EXPECT_EQ(gpu.selected_placement(), cpu.selected_placement());
  double loads = 0;
  const auto net = gpu.selected_network();
  ASSERT_TRUE(net);
  for (const auto& e : net->edges) loads += e.load;
  EXPECT_DOUBLE_EQ(loads, gpu.selected_cost()->value);
}

}  // namespace
}  // namespace ks::app
