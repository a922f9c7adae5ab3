// The "Why" explainer's counter pitfalls on counter sets made by hand: each one found where the counters show
// it and not where they do not, and nothing said about them without counters.
#include <gtest/gtest.h>

#include "report/why_explain.hpp"
#include "report/why_input.hpp"
#include "support/why_support.hpp"

namespace ks {
namespace {

using why_test::find;
using why_test::has;

// A CUDA run of a u8 grey stencil with clean counters: every load of a warp in 2 sectors (a row read at an
// unaligned start), no shared memory, all lanes busy, occupancy as theoretical.
report::WhyInput clean_u8_run() {
  report::WhyInput in;
  in.family = "stencil";
  in.kernel = "box";
  in.variant = "naive";
  in.backend = Backend::Cuda;
  in.block = BlockShape{32, 8};
  in.lane_bytes = 1;
  in.kernel_time.median_ms = 1;
  in.occupancy = why_test::occupancy(256, 30, 8, 1.0, "warps");
  KernelCounters c;
  c.global_load_requests = 1000;
  c.global_load_sectors = 2000;
  c.global_store_requests = 100;
  c.global_store_sectors = 100;
  c.achieved_occupancy_pct = 92;
  c.warp_execution_efficiency_pct = 99;
  in.counters = c;
  return in;
}

TEST(WhyCounters, CleanCountersFindNothingOfTheirKind) {
  const auto findings = report::explain_why(clean_u8_run());
  for (const char* id : {"uncoalesced", "bank-conflicts", "low-achieved-occupancy", "divergence"})
    EXPECT_FALSE(has(findings, id)) << id;
}

TEST(WhyCounters, ScatteredLoadsAreUncoalescedWithTheirNumbers) {
  report::WhyInput in = clean_u8_run();
  in.counters->global_load_sectors = 12500;  // 12.5 sectors per request where 1-byte lanes need 1
  const auto findings = report::explain_why(in);
  const auto* f = find(findings, "uncoalesced");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->finding.find("12.5 sectors"), std::string::npos) << f->finding;
  EXPECT_NE(f->finding.find("need 1"), std::string::npos) << f->finding;
  EXPECT_NE(f->fix.find("--variant tiled"), std::string::npos) << "box lists tiled after naive: " << f->fix;
}

TEST(WhyCounters, FourByteElementsMayTouchFourSectorsPerRequest) {
  report::WhyInput in = clean_u8_run();
  in.lane_bytes = 4;                        // f32 grey: 32 lanes x 4 bytes = 128 bytes = 4 sectors
  in.counters->global_load_sectors = 5000;  // 5 per request: an unaligned start, not a scatter
  EXPECT_FALSE(has(report::explain_why(in), "uncoalesced"));
  in.counters->global_load_sectors = 20000;  // 20 per request: five times the ideal
  EXPECT_TRUE(has(report::explain_why(in), "uncoalesced"));
}

TEST(WhyCounters, VectorLoadsOfUnknownWidthAreJudgedByTheWidestCoalescedLoad) {
  report::WhyInput in = clean_u8_run();
  in.variant = "tiled";
  in.lane_bytes = 0;                         // a tiled kernel's own vectors: 4 to 16 bytes a lane
  in.counters->global_load_sectors = 12000;  // 12 per request: 12-byte lanes, coalesced
  EXPECT_FALSE(has(report::explain_why(in), "uncoalesced"));
  // 19 per request: 16-byte lanes whose runs start off a sector (the separable f32 Gaussian records 19.03 on an
  // H100, docs/PERF.md), coalesced.
  in.counters->global_load_sectors = 19000;
  EXPECT_FALSE(has(report::explain_why(in), "uncoalesced"));
  in.counters->global_load_sectors = 40000;  // 40: more than twice what a warp of 16-byte lanes (16) needs
  EXPECT_TRUE(has(report::explain_why(in), "uncoalesced"));
}

TEST(WhyCounters, BankConflictsPerSharedInstruction) {
  report::WhyInput in = clean_u8_run();
  in.variant = "tiled";
  in.counters->shared_load_instructions = 4000;
  in.counters->shared_store_instructions = 1000;
  in.counters->shared_load_bank_conflicts = 100;  // 0.02 per instruction: noise
  EXPECT_FALSE(has(report::explain_why(in), "bank-conflicts"));
  in.counters->shared_load_bank_conflicts = 5000;  // 1 per instruction: a 2-way conflict throughout
  const auto findings = report::explain_why(in);
  const auto* f = find(findings, "bank-conflicts");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->finding.find("1.00 extra wavefronts"), std::string::npos) << f->finding;
}

TEST(WhyCounters, AchievedOccupancyFarBelowTheTheoretical) {
  report::WhyInput in = clean_u8_run();
  in.counters->achieved_occupancy_pct = 41;  // theoretical 100%
  const auto findings = report::explain_why(in);
  const auto* f = find(findings, "low-achieved-occupancy");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->finding.find("41%"), std::string::npos) << f->finding;
  EXPECT_NE(f->finding.find("100%"), std::string::npos) << f->finding;
  in.counters->achieved_occupancy_pct = 85;
  EXPECT_FALSE(has(report::explain_why(in), "low-achieved-occupancy"));
}

TEST(WhyCounters, DivergenceFromTheWarpExecutionEfficiency) {
  report::WhyInput in = clean_u8_run();
  in.counters->warp_execution_efficiency_pct = 58;
  const auto findings = report::explain_why(in);
  const auto* f = find(findings, "divergence");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->finding.find("58%"), std::string::npos) << f->finding;
  in.counters->warp_execution_efficiency_pct = 96;
  EXPECT_FALSE(has(report::explain_why(in), "divergence"));
}

TEST(WhyCounters, WithoutCountersNothingIsSaidOfWhatOnlyTheyShow) {
  report::WhyInput in = clean_u8_run();
  in.counters->global_load_sectors = 30000;
  in.counters->warp_execution_efficiency_pct = 30;
  in.counters.reset();
  const auto findings = report::explain_why(in);
  for (const char* id : {"uncoalesced", "bank-conflicts", "low-achieved-occupancy", "divergence"})
    EXPECT_FALSE(has(findings, id)) << id;
}

}  // namespace
}  // namespace ks
