// The "Why" explainer's launch pitfalls on stencil reports made by hand against the H100 model: low
// theoretical occupancy with a block that raises it, the tail effect of a tiny image, a block 20 wide.
#include <gtest/gtest.h>

#include "report/why_explain.hpp"
#include "support/why_support.hpp"

namespace ks {
namespace {

using why_test::find;
using why_test::has;

// 56 registers per thread on an H100: a warp takes 56 x 32 = 1792 registers, a sub-partition's 16384 hold 9
// warps, so an SM holds 36. A 32x24 block (24 warps, 6 per sub-partition) fits once: 24 of 64 warps, 37.5%.
// A 128-thread block (4 warps, 1 per sub-partition) fits 9 times: 36 warps, 56.25%.
RunReport register_bound_report(BlockShape block, int active_blocks, double occupancy) {
  RunReport r = why_test::cuda_stencil_report("box", "naive", 4096, 4096, block);
  r.occupancy = why_test::occupancy(block.threads(), 56, active_blocks, occupancy, "registers");
  return r;
}

TEST(WhyLaunch, LowOccupancyNamesItsLimiterAndABlockThatRaisesIt) {
  const auto findings = report::explain_why(register_bound_report({32, 24}, 1, 0.375), &why_test::h100());
  const auto* f = find(findings, "low-occupancy");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->finding.find("38%"), std::string::npos) << f->finding;
  EXPECT_NE(f->finding.find("registers (56 per thread)"), std::string::npos) << f->finding;
  EXPECT_NE(f->fix.find("56%"), std::string::npos) << f->fix;
  // The block it names has 128 threads (4 warps): the shapes of 128 threads are 32x4, 64x2 and 128x1.
  const std::size_t at = f->fix.find("--block ");
  ASSERT_NE(at, std::string::npos) << f->fix;
  const BlockShape named = parse_block_shape(f->fix.substr(at + 8, f->fix.find(' ', at + 8) - (at + 8)));
  EXPECT_EQ(named.threads(), 128) << f->fix;
}

TEST(WhyLaunch, OccupancyAtHalfOrAboveIsNotAFinding) {
  EXPECT_FALSE(has(report::explain_why(register_bound_report({32, 4}, 9, 0.5625), &why_test::h100()),
                   "low-occupancy"));
}

TEST(WhyLaunch, ARunNearItsRoofIsNotHeldBackByOccupancy) {
  RunReport r = register_bound_report({32, 24}, 1, 0.375);
  r.roofline.percent_of_roof = 85;
  EXPECT_FALSE(has(report::explain_why(r, &why_test::h100()), "low-occupancy"));
}

TEST(WhyLaunch, ATinyImageLeavesMostSmsIdle) {
  // 1023x7 in 32x8 blocks: ceil(1023 / 32) x ceil(7 / 8) = 32 x 1 = 32 blocks for the H100's 132 SMs.
  RunReport r = why_test::cuda_stencil_report("box", "naive", 1023, 7, {32, 8});
  r.occupancy = why_test::occupancy(256, 30, 8, 1.0, "warps");
  const auto findings = report::explain_why(r, &why_test::h100());
  const auto* f = find(findings, "tail-effect");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->finding.find("32 blocks for 132 SMs"), std::string::npos) << f->finding;
  EXPECT_NE(f->finding.find("100 SMs have nothing to do"), std::string::npos) << f->finding;
}

TEST(WhyLaunch, APartialSecondWave) {
  // 1024x296 in 32x8 blocks: 32 x 37 = 1184 blocks over 1056 slots; the second wave holds 128 blocks, 12.1%
  // of the slots, and the GPU stands 1 - 1.121 / 2 = 43.9% idle over the two waves.
  RunReport r = why_test::cuda_stencil_report("box", "naive", 1024, 296, {32, 8});
  r.occupancy = why_test::occupancy(256, 30, 8, 1.0, "warps");
  const auto findings = report::explain_why(r, &why_test::h100());
  const auto* f = find(findings, "tail-effect");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->finding.find("1184 blocks run in 2 waves of 1056"), std::string::npos) << f->finding;
  EXPECT_NE(f->finding.find("12.1%"), std::string::npos) << f->finding;
  EXPECT_NE(f->finding.find("43.9%"), std::string::npos) << f->finding;
}

TEST(WhyLaunch, ALargeImageFillsItsWaves) {
  // 8192x8192 in 32x8 blocks: 256 x 1024 = 262144 blocks over 132 x 8 = 1056 slots: 248.2 waves, the last
  // one a fifth full, 0.3% of the GPU idle over the run.
  RunReport r = why_test::cuda_stencil_report("box", "naive", 8192, 8192, {32, 8});
  r.occupancy = why_test::occupancy(256, 30, 8, 1.0, "warps");
  EXPECT_FALSE(has(report::explain_why(r, &why_test::h100()), "tail-effect"));
}

TEST(WhyLaunch, WithoutADeviceTheTailIsNotGuessed) {
  RunReport r = why_test::cuda_stencil_report("box", "naive", 1023, 7, {32, 8});
  r.occupancy = why_test::occupancy(256, 30, 8, 1.0, "warps");
  EXPECT_FALSE(has(report::explain_why(r), "tail-effect")) << "the SM count is the device's";
}

TEST(WhyLaunch, ABlockTwentyWideSplitsItsWarpsOverRows) {
  RunReport r = why_test::cuda_stencil_report("box", "naive", 4096, 4096, {20, 8});
  r.occupancy = why_test::occupancy(160, 30, 12, 0.9375, "blocks per SM");
  const auto findings = report::explain_why(r, &why_test::h100());
  const auto* f = find(findings, "block-width");
  ASSERT_NE(f, nullptr);
  // Threads 32..63 of a 20-wide block are (12..19, row 1), (0..19, row 2), (0..3, row 3): 3 rows.
  EXPECT_NE(f->finding.find("up to 3 rows"), std::string::npos) << f->finding;
  const std::size_t at = f->fix.find("--block ");
  ASSERT_NE(at, std::string::npos) << f->fix;
  const BlockShape named = parse_block_shape(f->fix.substr(at + 8, f->fix.find(' ', at + 8) - (at + 8)));
  EXPECT_EQ(named.x % 32, 0) << f->fix;
  EXPECT_FALSE(has(report::explain_why(why_test::cuda_stencil_report("box", "naive", 4096, 4096, {32, 8}),
                                       &why_test::h100()),
                   "block-width"));
}

TEST(WhyLaunch, OneDimensionalBlocksCountIdleLanes) {
  report::WhyInput in;
  in.family = "lab";
  in.backend = Backend::Cuda;
  in.block = BlockShape{100, 1};
  in.block_rank = 1;
  in.kernel_time.median_ms = 1;
  const auto findings = report::explain_why(in);
  const auto* f = find(findings, "block-width");
  ASSERT_NE(f, nullptr);
  // 100 threads are 4 warps of 32 lanes: 128 - 100 = 28 idle.
  EXPECT_NE(f->finding.find("28 idle lanes"), std::string::npos) << f->finding;
  EXPECT_NE(f->fix.find("--block 128"), std::string::npos) << f->fix;
}

TEST(WhyLaunch, TheCpuBackendHasNoLaunchFindings) {
  RunReport r = why_test::cuda_stencil_report("box", "cpu", 1023, 7, {20, 8});
  r.backend = Backend::Cpu;
  r.block.reset();
  const auto findings = report::explain_why(r, &why_test::h100());
  for (const char* id : {"low-occupancy", "tail-effect", "block-width"})
    EXPECT_FALSE(has(findings, id)) << id;
}

}  // namespace
}  // namespace ks
