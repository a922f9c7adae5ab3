// Every CUDA variant of reduce, integrate2d and matmul once on small sizes: the set compute-sanitizer's
// memcheck and racecheck run (scripts/gpu-check's filter LabCudaSmall.*); the results are checked as in the
// larger tests.
#include <gtest/gtest.h>

#include <string>

#include "engine/engine.hpp"
#include "support/lab_sized_request.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

Engine& engine() {
  static Engine e(Engine::Options{0});
  return e;
}

void expect_agrees(lab::LabRequest req, const std::string& what) {
  SCOPED_TRACE(what);
  const auto r = lab::run_lab(engine(), req);
  ASSERT_TRUE(r.report.check.checked);
  EXPECT_TRUE(r.report.check.agrees) << r.report.check.detail;
}

TEST(LabCudaSmall, Reduce) {
  KS_REQUIRE_GPU();
  for (const char* v : {"atomic", "shared", "warp", "cub"})
    for (const char* acc : {"accumulate=f32", "accumulate=f64"}) {
      auto req = test::sized_request("reduce", lab::LabSize::elements(1025), Backend::Cuda, v, {acc});
      req.block = BlockShape{64, 1};
      expect_agrees(req, std::string(v) + " " + acc);
      req.host = lab::HostMode::Pinned;  // chunks starting at unaligned offsets, in two streams
      req.streams = 2;
      req.chunks = 3;
      expect_agrees(req, std::string(v) + " " + acc + " streams");
    }
}

TEST(LabCudaSmall, Integrate2d) {
  KS_REQUIRE_GPU();
  for (const char* v : {"atomic", "shared", "warp", "cub"})
    for (const char* f : {"integrand=sincos", "integrand=poly"}) {
      auto req = test::sized_request("integrate2d", lab::LabSize::grid(31, 33), Backend::Cuda, v,
                                     {f, "accumulate=f64"});
      req.block = BlockShape{128, 1};
      expect_agrees(req, std::string(v) + " " + f);
    }
}

TEST(LabCudaSmall, Matmul) {
  KS_REQUIRE_GPU();
  const std::pair<const char*, BlockShape> runs[] = {
      {"naive", {16, 16}},    {"tiled", {8, 8}},    {"tiled", {16, 16}},      {"tiled", {32, 32}},
      {"regtiled", {16, 16}}, {"cublas", {16, 16}}, {"cublas_tf32", {16, 16}}};
  for (const auto& [v, block] : runs)
    for (const auto& size : {lab::LabSize::matmul(7, 13, 5), lab::LabSize::matmul(129, 68, 36)}) {
      auto req = test::sized_request("matmul", size, Backend::Cuda, v);
      req.block = block;
      expect_agrees(req, std::string(v) + " " + to_string(block) + " " + lab::to_string(size));
    }
}

}  // namespace
}  // namespace ks
