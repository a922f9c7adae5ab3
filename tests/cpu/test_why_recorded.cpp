// The "Why" explainer on counter sets recorded on an H100 (tests/fixtures/why: `kernelscope-cli run box|gaussian
// --counters --json` at 8192x8192, radius 1, block 32x8; see its README): what a learner should be told about the
// naive, tiled and separable box filters and the separable Gaussian, and what they should not be told. Runs without a GPU: the reports are read back
// as the CLI had them, and the H100's limits come from its device model.
#include <gtest/gtest.h>

#include "report/why_explain.hpp"
#include "report/why_output.hpp"
#include "support/why_recorded.hpp"
#include "support/why_support.hpp"

namespace ks {
namespace {

using why_test::has;
using why_test::recorded_run_report;

std::vector<report::WhyFinding> explain(const RunReport& r) { return report::explain_why(r, &why_test::h100()); }

// What only the counters can show, and none of these kernels has: their warps run whole (no divergence; the
// recorded efficiency is above 98%) and they keep most of the occupancy the launch allows.
void expect_no_warp_findings(const std::vector<report::WhyFinding>& findings) {
  EXPECT_FALSE(has(findings, "divergence"));
  EXPECT_FALSE(has(findings, "low-achieved-occupancy"));
  EXPECT_FALSE(has(findings, "bank-conflicts"));
}

TEST(WhyRecorded, NaiveBoxU8IsMemoryBoundFarBelowCopyAndCoalesced) {
  const RunReport r = recorded_run_report("h100-box-u8-naive.json");
  ASSERT_TRUE(r.counters);
  // The recorded numbers the findings rest on: 4.5% of the copy bandwidth; 1.33 sectors per 1-byte load.
  EXPECT_LT(r.percent_of_copy, 10);
  EXPECT_NEAR(r.counters->load_sectors_per_request(), 1.33, 0.01);
  const auto findings = explain(r);
  const report::WhyFinding* slow = why_test::find(findings, "memory-far-below-copy");
  ASSERT_NE(slow, nullptr);
  EXPECT_NE(slow->finding.find("133.8 GB/s"), std::string::npos) << slow->finding;
  EXPECT_NE(slow->fix.find("--variant tiled"), std::string::npos) << slow->fix;
  // A warp of 1-byte lanes reading a row needs 1 sector; the window's shifted taps add a third: not scattered.
  EXPECT_FALSE(has(findings, "uncoalesced"));
  expect_no_warp_findings(findings);
  // 15 ms of copies around a 1 ms kernel: the first thing a learner should fix in a pipeline.
  EXPECT_TRUE(has(findings, "transfers-dominate"));
  EXPECT_EQ(report::why_paragraph(findings, true).find("no hardware counters"), std::string::npos);
}

TEST(WhyRecorded, NaiveBoxF32IsMemoryBoundFarBelowCopyAndCoalesced) {
  const RunReport r = recorded_run_report("h100-box-f32-naive.json");
  ASSERT_TRUE(r.counters);
  // 2.83 sectors per request where 4-byte lanes need 4 (the L1 merges the window's overlapping taps).
  EXPECT_LT(r.counters->load_sectors_per_request(), 4);
  const auto findings = explain(r);
  ASSERT_TRUE(has(findings, "memory-far-below-copy"));
  EXPECT_NE(why_test::find(findings, "memory-far-below-copy")->fix.find("--variant tiled"), std::string::npos);
  EXPECT_FALSE(has(findings, "uncoalesced"));
  expect_no_warp_findings(findings);
}

TEST(WhyRecorded, TiledBoxU8HasNoUncoalescedOrBankConflictFinding) {
  const RunReport r = recorded_run_report("h100-box-u8-tiled.json");
  ASSERT_TRUE(r.counters);
  // Its loads carry more bytes per request than a naive lane's (9.8 sectors), and a few shared-memory conflicts
  // (0.04 extra wavefronts per shared instruction): neither is a pitfall.
  EXPECT_GT(r.counters->load_sectors_per_request(), 4);
  EXPECT_GT(r.counters->bank_conflicts_per_shared_instruction(), 0);
  const auto findings = explain(r);
  EXPECT_FALSE(has(findings, "uncoalesced"));
  expect_no_warp_findings(findings);
  // Still 27% of the copy bandwidth: the next variant is the fix named.
  ASSERT_TRUE(has(findings, "memory-far-below-copy"));
  EXPECT_NE(why_test::find(findings, "memory-far-below-copy")->fix.find("--variant separable"), std::string::npos);
}

TEST(WhyRecorded, SeparableBoxU8NearItsRoofIsNotCalledUncoalesced) {
  const RunReport r = recorded_run_report("h100-box-u8-separable.json");
  ASSERT_TRUE(r.counters);
  // Its packed passes load 16 bytes a lane: 16 sectors per request is coalesced, and a row that does not start
  // on a sector boundary adds a little (16.2 recorded). Above 16 the explainer once called this uncoalesced.
  EXPECT_GT(r.counters->load_sectors_per_request(), 16);
  EXPECT_LT(r.counters->load_sectors_per_request(), 16.5);
  const auto findings = explain(r);
  EXPECT_FALSE(has(findings, "uncoalesced"));
  EXPECT_FALSE(has(findings, "memory-far-below-copy")) << "77% of the copy bandwidth";
  expect_no_warp_findings(findings);
}

TEST(WhyRecorded, SeparableGaussianF32ShowsItsBankConflicts) {
  const RunReport r = recorded_run_report("h100-gauss-f32-separable.json");
  ASSERT_TRUE(r.counters);
  // The column pass reads its shared tile down columns: 1.12 extra wavefronts per shared instruction recorded,
  // where a conflict-free kernel has 0 (the tiled box above: 0.04).
  EXPECT_GT(r.counters->bank_conflicts_per_shared_instruction(), 1.0);
  const auto findings = explain(r);
  const report::WhyFinding* conflicts = why_test::find(findings, "bank-conflicts");
  ASSERT_NE(conflicts, nullptr);
  EXPECT_NE(conflicts->finding.find("1.12 extra wavefronts"), std::string::npos) << conflicts->finding;
  EXPECT_FALSE(has(findings, "divergence"));
}

TEST(WhyRecorded, TiledBoxF32IsNotCalledUncoalescedForItsVectorLoads) {
  const RunReport r = recorded_run_report("h100-box-f32-tiled.json");
  ASSERT_TRUE(r.counters);
  // The tile is filled with 16-byte vectors: 18.75 sectors per request recorded, about the 16 a warp of them
  // needs, and nearly no shared-memory conflicts.
  EXPECT_GT(r.counters->load_sectors_per_request(), 16);
  EXPECT_LT(r.counters->bank_conflicts_per_shared_instruction(), 0.1);
  const auto findings = explain(r);
  EXPECT_FALSE(has(findings, "uncoalesced"));
  expect_no_warp_findings(findings);
  // 134 MB each way around a 0.2 ms kernel.
  EXPECT_TRUE(has(findings, "transfers-dominate"));
}

TEST(WhyRecorded, DivergentColumnsShowDivergenceAndTheRowBranchDoesNot) {
  // assets/kernels/divergent_columns.cu, run as your own kernel: even columns blur 5x5, odd ones sharpen 3x3, so
  // every warp runs both paths; with rows=1 the same work branches on the row and a warp takes one path whole.
  const RunReport columns = recorded_run_report("h100-divergent-columns.json");
  const RunReport rows = recorded_run_report("h100-divergent-rows.json");
  ASSERT_TRUE(columns.counters);
  ASSERT_TRUE(rows.counters);
  // Recorded: 53% of a warp's lanes run each instruction against 99.6%, and the divergent launch takes 1.8x as long.
  EXPECT_LT(columns.counters->warp_execution_efficiency_pct, 60);
  EXPECT_GT(rows.counters->warp_execution_efficiency_pct, 95);
  EXPECT_GT(columns.kernel_time.median_ms, 1.5 * rows.kernel_time.median_ms);
  const auto divergent = explain(columns);
  const report::WhyFinding* finding = why_test::find(divergent, "divergence");
  ASSERT_NE(finding, nullptr);
  EXPECT_NE(finding->finding.find("53%"), std::string::npos) << finding->finding;
  EXPECT_FALSE(has(explain(rows), "divergence"));
}

}  // namespace
}  // namespace ks
