// The Timing section's Counters switch applies to simulations: on the CPU backend a simulation's report says
// why it has none (CUDA: tests/gpu/test_session_sim_counters_cuda.cpp), off it says nothing, and the
// simulation itself (state, generation) does not move for them.
#include <gtest/gtest.h>

#include "core/kernel_counters.hpp"
#include "cpu/session_sim_support.hpp"
#include "session/session.hpp"

namespace ks::app {
namespace {

using session_test::cpu_options;

TEST(SessionSimCounters, OnTheCpuTheReportSaysWhyThereAreNone) {
  Session s(cpu_options());
  test_sim::start_paused(s, "life", 45, 29);
  s.simulation().step(2);
  s.wait_idle();
  ASSERT_TRUE(s.simulation().report());
  EXPECT_TRUE(s.simulation().report()->counters_unavailable.empty()) << "the switch is off";
  const long long generation = s.simulation().generation();

  s.set_counters(true);
  s.wait_idle();
  const auto& r = s.simulation().report();
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->counters);
  EXPECT_EQ(r->counters_unavailable, counters_on_cpu_message("this simulation"));
  EXPECT_EQ(s.simulation().generation(), generation) << "reading counters is not a step";

  // New parameters: the report is made again, and still says why.
  s.set_param("rule", "B36/S23");
  s.wait_idle();
  EXPECT_EQ(s.simulation().report()->counters_unavailable, counters_on_cpu_message("this simulation"));

  s.set_counters(false);
  EXPECT_TRUE(s.simulation().report()->counters_unavailable.empty());
  s.set_param("rule", "B3/S23");
  s.wait_idle();
  EXPECT_TRUE(s.simulation().report()->counters_unavailable.empty()) << "off: nothing read, nothing said";
}

}  // namespace
}  // namespace ks::app
