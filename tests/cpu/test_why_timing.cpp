// The "Why" explainer's timing and roofline pitfalls on figures made by hand: transfers that dominate (from
// pageable memory), managed memory's page faults, a first launch that loads the module, a memory-bound kernel
// far below the copy bandwidth and a compute-bound one far below its ceiling.
#include <gtest/gtest.h>

#include "lab/lab_report.hpp"
#include "report/why_explain.hpp"
#include "support/why_support.hpp"

namespace ks {
namespace {

using why_test::find;
using why_test::has;

lab::LabReport cuda_vecadd(lab::HostMode host, double upload_ms, double kernel_ms, double download_ms) {
  lab::LabReport r;
  r.kernel = "vecadd";
  r.variant = "naive";
  r.backend = Backend::Cuda;
  r.host = host;
  r.block = BlockShape{256, 1};
  r.upload_time.median_ms = upload_ms;
  r.kernel_time.median_ms = kernel_ms;
  r.download_time.median_ms = download_ms;
  return r;
}

TEST(WhyTiming, CopiesFromPageableMemoryDominate) {
  const auto findings = report::explain_why(cuda_vecadd(lab::HostMode::Pageable, 10, 0.5, 5));
  const auto* f = find(findings, "transfers-dominate");
  ASSERT_NE(f, nullptr);
  // 10 + 5 = 15 ms of copies against a 0.5 ms kernel: 30x.
  EXPECT_NE(f->finding.find("15.00 ms"), std::string::npos) << f->finding;
  EXPECT_NE(f->finding.find("30.0x"), std::string::npos) << f->finding;
  EXPECT_NE(f->finding.find("pageable"), std::string::npos) << f->finding;
  EXPECT_NE(f->fix.find("--host pinned"), std::string::npos) << f->fix;
}

TEST(WhyTiming, PinnedCopiesThatDominateSuggestStreams) {
  const auto findings = report::explain_why(cuda_vecadd(lab::HostMode::Pinned, 4, 0.5, 4));
  const auto* f = find(findings, "transfers-dominate");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->finding.find("pageable"), std::string::npos) << f->finding;
  EXPECT_NE(f->fix.find("--streams"), std::string::npos) << f->fix;
}

TEST(WhyTiming, CopiesShorterThanTwiceTheKernelAreNotAFinding) {
  EXPECT_FALSE(
      has(report::explain_why(cuda_vecadd(lab::HostMode::Pageable, 0.4, 1.0, 0.4)), "transfers-dominate"));
}

TEST(WhyTiming, ManagedMemoryFaultsInsideTheKernel) {
  const auto findings = report::explain_why(cuda_vecadd(lab::HostMode::Managed, 0, 9, 0));
  const auto* f = find(findings, "managed-page-faults");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->fix.find("--host managed-prefetch"), std::string::npos) << f->fix;
  EXPECT_FALSE(
      has(report::explain_why(cuda_vecadd(lab::HostMode::ManagedPrefetch, 1, 1, 1)), "managed-page-faults"));
}

TEST(WhyTiming, AFirstLaunchThatLoadsTheModule) {
  lab::LabReport r = cuda_vecadd(lab::HostMode::Pinned, 0.1, 0.3, 0.1);
  r.first_launch_ms = 42;
  const auto findings = report::explain_why(r);
  const auto* f = find(findings, "first-launch");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->finding.find("42.00 ms"), std::string::npos) << f->finding;
  EXPECT_NE(f->finding.find("140x"), std::string::npos) << "42 / 0.3: " << f->finding;
  EXPECT_NE(f->fix.find("--warmup"), std::string::npos) << f->fix;
  r.first_launch_ms = 0.35;  // a little slower than the median: clocks, not loading
  EXPECT_FALSE(has(report::explain_why(r), "first-launch"));
  r.first_launch_ms.reset();  // no warm-up: nothing to compare
  EXPECT_FALSE(has(report::explain_why(r), "first-launch"));
}

// A roof of 1000 GB/s and 50000 GFLOP/s (the ridge at 50 op/B).
ComputePeaks peaks() {
  return ComputePeaks(1000, 50000, "a test GPU");
}

TEST(WhyRoofline, AMemoryBoundKernelFarBelowTheCopyBandwidth) {
  // 2 GB in 10 ms: 200 GB/s, a fifth of the copy bandwidth; 0.25 op/B, far below the ridge.
  RunReport r = why_test::cuda_stencil_report("box", "naive", 4096, 4096, {32, 8});
  r.kernel_time.median_ms = 10;
  r.roofline = roofline_figures(OpMix::of(OpKind::F32Fma, 0.5e9), 2'000'000'000, 10, peaks());
  const auto findings = report::explain_why(r);
  const auto* f = find(findings, "memory-far-below-copy");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->finding.find("200.0 GB/s"), std::string::npos) << f->finding;
  EXPECT_NE(f->finding.find("20.0%"), std::string::npos) << f->finding;
  EXPECT_NE(f->fix.find("--variant tiled"), std::string::npos) << f->fix;
  // 2 GB in 2.5 ms: 800 GB/s, 80% of the copy.
  r.kernel_time.median_ms = 2.5;
  r.roofline = roofline_figures(OpMix::of(OpKind::F32Fma, 0.5e9), 2'000'000'000, 2.5, peaks());
  EXPECT_FALSE(has(report::explain_why(r), "memory-far-below-copy"));
}

TEST(WhyRoofline, AComputeBoundKernelFarBelowItsCeiling) {
  // matmul naive 2048^3: 2 x 2048^3 = 17.2 GFLOP over 50 MB (A, B read once, C written once): 343 op/B, above
  // the ridge. In 100 ms: 172 GFLOP/s, 0.34% of the 50000 ceiling.
  lab::LabReport r = cuda_vecadd(lab::HostMode::Pinned, 1, 100, 1);
  r.kernel = "matmul";
  r.variant = "naive";
  r.block = BlockShape{16, 16};
  const double flops = 2.0 * 2048 * 2048 * 2048;
  r.roofline = roofline_figures(OpMix::of(OpKind::F32Fma, flops), 3ull * 2048 * 2048 * 4, 100, peaks());
  const auto findings = report::explain_why(r);
  const auto* f = find(findings, "compute-far-below-peak");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->fix.find("--variant tiled"), std::string::npos)
      << "matmul lists tiled after naive: " << f->fix;
  EXPECT_FALSE(has(findings, "memory-far-below-copy"));
}

}  // namespace
}  // namespace ks
