// reduce and integrate2d on the GPU through the lab framework: every CUDA variant, both accumulation types
// and several blocks against the CPU's compensated sum within the rounding bound the kernel derives (exact
// where the values make it so), on awkward sizes; chunked streams; blocks a variant cannot use.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "support/lab_sized_request.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

Engine& engine() {
  static Engine e(Engine::Options{0});
  return e;
}

const long long kSizes[] = {1, 31, 1025, (1 << 20) + 3};
const char* const kVariants[] = {"atomic", "shared", "warp", "cub"};

lab::LabResult run(const std::string& kernel, const lab::LabSize& size, const std::string& variant,
                   std::vector<std::string> params, int block = 256) {
  auto req = test::sized_request(kernel, size, Backend::Cuda, variant, params);
  req.block = BlockShape{block, 1};
  return lab::run_lab(engine(), req);
}

std::string trace(const std::string& variant, const std::string& param, long long n, int block) {
  return variant + " " + param + " n=" + std::to_string(n) + " block=" + std::to_string(block);
}

TEST(LabReduceCuda, EveryVariantWithinTheBoundOfItsAccumulation) {
  KS_REQUIRE_GPU();
  for (const char* variant : kVariants)
    for (const char* acc : {"accumulate=f32", "accumulate=f64"})
      for (long long n : kSizes) {
        SCOPED_TRACE(trace(variant, acc, n, 256));
        const auto r = run("reduce", lab::LabSize::elements(n), variant, {acc, "distribution=normal"});
        ASSERT_TRUE(r.report.check.checked);
        EXPECT_TRUE(r.report.check.agrees) << r.report.check.detail;
        EXPECT_LE(std::fabs(test::fact_number(r.report, "rounding error")),
                  test::fact_number(r.report, "rounding bound"));
      }
}

TEST(LabReduceCuda, IntegersSumExactlyInF64) {
  KS_REQUIRE_GPU();
  for (const char* variant : kVariants)
    for (long long n : kSizes) {
      SCOPED_TRACE(trace(variant, "integers", n, 256));
      const auto r =
          run("reduce", lab::LabSize::elements(n), variant, {"accumulate=f64", "distribution=integers"});
      // Integer partial sums below 2^53 are exact in any order: the GPU sum is the integer sum.
      EXPECT_EQ(test::fact_number(r.report, "sum"), test::fact_number(r.report, "exact sum"));
    }
}

TEST(LabReduceCuda, BlocksEachVariantCanUse) {
  KS_REQUIRE_GPU();
  const std::pair<const char*, int> cases[] = {{"atomic", 1},    {"atomic", 96}, {"shared", 32},
                                               {"shared", 1024}, {"warp", 32},   {"warp", 1024},
                                               {"warp", 96},     {"shared", 64}};
  for (const auto& [variant, block] : cases)
    for (long long n : {31LL, (1LL << 20) + 3}) {
      SCOPED_TRACE(trace(variant, "f32", n, block));
      const auto r = run("reduce", lab::LabSize::elements(n), variant, {"distribution=uniform"}, block);
      EXPECT_TRUE(r.report.check.agrees) << r.report.check.detail;
      ASSERT_TRUE(r.report.launch);
      EXPECT_EQ(r.report.launch->block.x, block);
    }
}

TEST(LabReduceCuda, RefusesBlocksAVariantCannotUse) {
  KS_REQUIRE_GPU();
  const std::pair<const char*, int> cases[] = {{"shared", 96}, {"warp", 48}, {"atomic", 2048}, {"warp", 0}};
  for (const auto& [variant, block] : cases) {
    SCOPED_TRACE(trace(variant, "", 1025, block));
    try {
      run("reduce", lab::LabSize::elements(1025), variant, {}, block);
      ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage) << e.full_message();
    }
  }
}

TEST(LabReduceCuda, ChunkedStreamsSumEveryChunk) {
  KS_REQUIRE_GPU();
  for (const char* variant : kVariants)
    for (const char* acc : {"accumulate=f32", "accumulate=f64"}) {
      const long long n = (1 << 20) + 3;  // chunks start at offsets that are not 16-byte aligned
      SCOPED_TRACE(trace(variant, acc, n, 256));
      auto req = test::sized_request("reduce", lab::LabSize::elements(n), Backend::Cuda, variant,
                                     {acc, "distribution=integers"});
      req.host = lab::HostMode::Pinned;
      req.streams = 4;
      req.chunks = 7;
      const auto r = lab::run_lab(engine(), req);
      EXPECT_TRUE(r.report.check.agrees) << r.report.check.detail;
      // Integer partial sums are exact in f64 however the chunks cut them: the streamed sum is the exact one.
      if (std::string(acc) == "accumulate=f64") {
        EXPECT_EQ(test::fact_number(r.report, "sum"), test::fact_number(r.report, "exact sum"));
      }
    }
}

// ---- integrate2d
// ----------------------------------------------------------------------------------------------

TEST(LabIntegrate2dCuda, EveryVariantAndIntegrandWithinTheBound) {
  KS_REQUIRE_GPU();
  const char* const integrands[] = {"integrand=sincos", "integrand=gauss", "integrand=quadratic",
                                    "integrand=poly"};
  const lab::LabSize sizes[] = {lab::LabSize::grid(1, 1), lab::LabSize::grid(31, 1),
                                lab::LabSize::grid(1025, 31), lab::LabSize::grid(1025, 1023)};
  for (const char* variant : kVariants)
    for (const char* acc : {"accumulate=f32", "accumulate=f64"})
      for (const char* f : integrands)
        for (const auto& size : sizes) {
          SCOPED_TRACE(trace(variant, std::string(acc) + " " + f, size.elements(), 256));
          const auto r = run("integrate2d", size, variant, {acc, f, "x0=-1", "x1=2", "y0=-0.5", "y1=1.5"});
          ASSERT_TRUE(r.report.check.checked);
          EXPECT_TRUE(r.report.check.agrees) << r.report.check.detail;
        }
}

TEST(LabIntegrate2dCuda, MidpointErrorAsExpected) {
  KS_REQUIRE_GPU();
  // poly's expansion is exact: with f64 accumulation the GPU's integral minus the closed form is the expected
  // midpoint error, up to the f32 samples (the test's tolerance: 1e-6 of the integral's magnitude).
  for (const char* variant : kVariants) {
    SCOPED_TRACE(variant);
    const auto r = run("integrate2d", lab::LabSize::grid(64, 32), variant,
                       {"accumulate=f64", "integrand=poly", "x0=0", "x1=2", "y0=-1", "y1=1"});
    const double error =
        test::fact_number(r.report, "midpoint integral") - test::fact_number(r.report, "exact integral");
    EXPECT_NEAR(error, test::fact_number(r.report, "expected midpoint error"), 1e-6 * 13 * 4);
  }
}

TEST(LabIntegrate2dCuda, InvXAwayFromZeroAndRefusedAcrossIt) {
  KS_REQUIRE_GPU();
  const auto r = run("integrate2d", lab::LabSize::grid(1024, 16), "warp",
                     {"integrand=invx", "x0=1", "x1=2.718281828459045", "y0=0", "y1=1", "accumulate=f64"});
  EXPECT_TRUE(r.report.check.agrees) << r.report.check.detail;
  EXPECT_NEAR(test::fact_number(r.report, "midpoint integral"), 1.0, 1e-6);
  try {
    run("integrate2d", lab::LabSize::grid(16, 16), "warp", {"integrand=invx", "x0=-1", "x1=1"});
    ADD_FAILURE() << "1/x across 0 was integrated";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
  }
}

}  // namespace
}  // namespace ks
