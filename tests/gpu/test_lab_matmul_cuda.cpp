// matmul on the GPU through the lab framework: every CUDA variant against the CPU reference on odd sizes with
// the per-element bound derived from K (TF32 looser, stated in matmul_check.hpp), exact on integer inputs;
// both paths of regtiled (16-byte and single loads); the blocks each variant takes and refuses.
#include <gtest/gtest.h>

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

const char* const kVariants[] = {"naive", "tiled", "regtiled", "cublas", "cublas_tf32"};
// Odd sizes; 130x600x300 and 256x260x128 take regtiled's 16-byte path (k, n multiples of 4), the others its
// single loads; 257x129x67 has partial 128x128 tiles on both edges.
const lab::LabSize kShapes[] = {lab::LabSize::matmul(1, 1, 1),       lab::LabSize::matmul(7, 13, 5),
                                lab::LabSize::matmul(129, 65, 33),   lab::LabSize::matmul(130, 600, 300),
                                lab::LabSize::matmul(256, 260, 128), lab::LabSize::matmul(257, 129, 67)};

lab::LabResult run(const lab::LabSize& size, const std::string& variant, const std::string& values,
                   BlockShape block) {
  auto req = test::sized_request("matmul", size, Backend::Cuda, variant, {"values=" + values});
  req.block = block;
  return lab::run_lab(engine(), req);
}

TEST(LabMatmulCuda, EveryVariantAgreesWithTheCpu) {
  KS_REQUIRE_GPU();
  for (const char* variant : kVariants)
    for (const char* values : {"uniform", "integers"})
      for (const auto& size : kShapes) {
        SCOPED_TRACE(std::string(variant) + " " + values + " " + lab::to_string(size));
        const auto r = run(size, variant, values, {16, 16});
        ASSERT_TRUE(r.report.check.checked);
        EXPECT_TRUE(r.report.check.agrees) << r.report.check.detail;
        if (std::string(values) == "integers") {
          EXPECT_EQ(r.report.check.max_abs_error, 0.0) << "exact";
        }
      }
}

TEST(LabMatmulCuda, BlocksTheVariantsTake) {
  KS_REQUIRE_GPU();
  const std::pair<const char*, BlockShape> cases[] = {
      {"naive", {32, 8}}, {"naive", {7, 5}}, {"naive", {1, 1}}, {"tiled", {8, 8}}, {"tiled", {32, 32}}};
  for (const auto& [variant, block] : cases) {
    SCOPED_TRACE(std::string(variant) + " " + to_string(block));
    const auto r = run(lab::LabSize::matmul(129, 65, 33), variant, "uniform", block);
    EXPECT_TRUE(r.report.check.agrees) << r.report.check.detail;
  }
}

TEST(LabMatmulCuda, RefusesBlocksAVariantCannotUse) {
  KS_REQUIRE_GPU();
  const std::pair<const char*, BlockShape> cases[] = {
      {"tiled", {16, 8}}, {"tiled", {64, 16}}, {"regtiled", {32, 8}}, {"naive", {64, 32}}};
  for (const auto& [variant, block] : cases) {
    SCOPED_TRACE(std::string(variant) + " " + to_string(block));
    try {
      run(lab::LabSize::matmul(64, 64, 64), variant, "uniform", block);
      ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage) << e.full_message();
    }
  }
}

TEST(LabMatmulCuda, Tf32IsSaidAndLooser) {
  KS_REQUIRE_GPU();
  const auto r = run(lab::LabSize::matmul(256, 256, 1024), "cublas_tf32", "uniform", {16, 16});
  EXPECT_TRUE(r.report.check.agrees) << r.report.check.detail;
  bool said = false;
  for (const auto& f : r.report.facts) said |= f.value.find("TF32 tensor cores") != std::string::npos;
  EXPECT_TRUE(said);
  // FP32 cuBLAS is far inside the FP32 bound, which TF32 results would not be on every element.
  const auto fp32 = run(lab::LabSize::matmul(256, 256, 1024), "cublas", "uniform", {16, 16});
  EXPECT_LT(fp32.report.check.max_abs_error, r.report.check.max_abs_error);
}

}  // namespace
}  // namespace ks
