// The Why section's explanation is worked out once per run (app::WhyCache): a frame with nothing new returns
// the same findings without running the explainer, and a new run, a new simulation report or steps, the
// Counters switch or another device model each give fresh ones.
#include <gtest/gtest.h>

#include "cpu/session_sim_support.hpp"
#include "cpu/session_support.hpp"
#include "report/why_explain.hpp"
#include "session/session.hpp"
#include "session/why_cache.hpp"

namespace ks::app {
namespace {

using session_test::cpu_options;

TEST(SessionWhyCache, NothingBeforeTheFirstRun) {
  Session s(cpu_options());
  WhyCache cache;
  EXPECT_EQ(cache.current(s), nullptr);
  EXPECT_EQ(cache.current(s), nullptr);
  EXPECT_EQ(cache.recomputations(), 1u) << "no run, and nothing changed: the second frame recomputes nothing";
}

TEST(SessionWhyCache, AStencilRunIsExplainedOnceAndAgainAfterTheNextRun) {
  Session s(cpu_options());
  s.open_sample();
  s.run_now();
  WhyCache cache;
  const WhyExplanation* e = cache.current(s);
  ASSERT_NE(e, nullptr);
  EXPECT_FALSE(e->counters);
  // The same findings as the explainer gives on the report itself.
  const auto direct = report::explain_why(*s.last_report(), nullptr);
  ASSERT_EQ(e->findings.size(), direct.size());
  for (std::size_t i = 0; i < direct.size(); ++i) EXPECT_EQ(e->findings[i].id, direct[i].id);
  for (int frame = 0; frame < 10; ++frame) EXPECT_EQ(cache.current(s), e);
  EXPECT_EQ(cache.recomputations(), 1u);

  s.set_param("radius", "2");
  s.run_now();
  ASSERT_NE(cache.current(s), nullptr);
  EXPECT_EQ(cache.recomputations(), 2u) << "a new run: a new explanation";
  cache.current(s);
  EXPECT_EQ(cache.recomputations(), 2u);
}

TEST(SessionWhyCache, ADeviceModelAddsTheModelledLaunchAndAnotherBlockRecomputesIt) {
  Session s(cpu_options());
  s.open_sample();
  s.run_now();
  WhyCache cache;
  ASSERT_NE(cache.current(s), nullptr);
  EXPECT_TRUE(cache.current(s)->modelled_heading.empty());
  s.set_device_model("h100");
  // A 20-wide block: its warps split over rows (the block-width finding of the modelled launch).
  s.set_block(BlockShape{20, 8});
  s.wait_idle();
  const std::uint64_t before = cache.recomputations();
  const WhyExplanation* e = cache.current(s);
  ASSERT_NE(e, nullptr);
  EXPECT_GT(cache.recomputations(), before);
  EXPECT_NE(e->modelled_heading.find("modelled"), std::string::npos);
  bool block_width = false;
  for (const auto& f : e->modelled) block_width |= f.id == "block-width";
  EXPECT_TRUE(block_width);
  const std::uint64_t settled = cache.recomputations();
  cache.current(s);
  EXPECT_EQ(cache.recomputations(), settled);
  s.set_block(BlockShape{32, 8});
  s.wait_idle();
  e = cache.current(s);
  EXPECT_GT(cache.recomputations(), settled);
  for (const auto& f : e->modelled) EXPECT_NE(f.id, "block-width") << f.finding;
}

TEST(SessionWhyCache, ASimulationIsExplainedAgainOnlyWhenItsStepsOrReportChange) {
  Session s(cpu_options());
  test_sim::start_paused(s, "heat", 61, 17);
  s.simulation().step(3);
  s.wait_idle();
  WhyCache cache;
  ASSERT_NE(cache.current(s), nullptr);
  const std::uint64_t after_steps = cache.recomputations();
  for (int frame = 0; frame < 5; ++frame) cache.current(s);
  EXPECT_EQ(cache.recomputations(), after_steps) << "paused: nothing changes";
  s.simulation().step(2);
  s.wait_idle();
  cache.current(s);
  EXPECT_EQ(cache.recomputations(), after_steps + 1) << "new step times";
  s.set_counters(true);
  s.wait_idle();
  cache.current(s);
  EXPECT_EQ(cache.recomputations(), after_steps + 2) << "the Counters switch changes the report";
}

}  // namespace
}  // namespace ks::app
