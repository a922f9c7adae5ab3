// vecadd and saxpy through the lab framework on the CPU backend: results against values the test derives
// itself, on awkward sizes; deterministic inputs; and the requests the framework refuses before taking memory.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "engine/engine.hpp"
#include "lab/lab.hpp"
#include "lab/lab_fill.hpp"
#include "support/lab_support.hpp"

namespace ks {
namespace {

using lab::LabSize;
using test::array_named;
using test::lab_request;

Engine& engine() {
  static Engine e(Engine::Options{2});
  return e;
}

const std::int64_t kSizes[] = {1, 31, 1025, (1 << 20) + 3};

TEST(LabVecadd, CpuSumsEveryElement) {
  for (std::int64_t n : kSizes) {
    SCOPED_TRACE(n);
    const auto r = lab::run_lab(engine(), lab_request("vecadd", n, Backend::Cpu, "cpu", {"a", "b", "c"}));
    const auto a = array_named(r, "a").as<float>(), b = array_named(r, "b").as<float>(),
               c = array_named(r, "c").as<float>();
    ASSERT_EQ(c.size(), std::size_t(n));
    bool spread = false;
    for (std::int64_t i = 0; i < n; ++i) {
      // Inputs are multiples of 2^-23 in -1..1, so the double sum is exact and one rounding gives the f32 sum.
      ASSERT_EQ(c[i], float(double(a[i]) + double(b[i]))) << i;
      ASSERT_GE(a[i], -1.0f);
      ASSERT_LE(a[i], 1.0f);
      spread |= a[i] != a[0];
    }
    EXPECT_TRUE(n == 1 || spread) << "the fill is not constant";
    EXPECT_EQ(r.report.cost.bytes, 12u * std::uint64_t(n));
    EXPECT_EQ(r.report.cost.operations, std::uint64_t(n));
    EXPECT_FALSE(r.report.check.checked) << "the CPU reference is not compared with itself";
    EXPECT_EQ(r.report.kernel_time.count, 1);
  }
}

TEST(LabVecadd, SaxpyUpdatesYInPlace) {
  for (const char* alpha : {"2", "0.5", "-3"}) {
    SCOPED_TRACE(alpha);
    auto req = lab_request("saxpy", 1025, Backend::Cpu, "cpu", {"x", "y"});
    req.params.set("alpha", alpha);
    req.repeat = 3;  // y is restored before each run, so repeats do not compound
    const auto r = lab::run_lab(engine(), req);
    const double a = std::stod(alpha);
    const auto x = array_named(r, "x").as<float>(), y = array_named(r, "y").as<float>();
    // x and y are multiples of 2^-23 in -1..1 and alpha a power of two or 3: alpha*x + y_in is exact in double.
    // y_in comes from the seed's second stream: recompute it from the documented fill.
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double u = double(lab::random_bits(1, 2, i) >> 40) * 0x1p-24;
      const float y_in = float(-1.0 + u * 2.0);
      ASSERT_EQ(y[i], float(a * double(x[i]) + double(y_in))) << i;
    }
  }
}

TEST(LabVecadd, SameSeedSameInputsWhateverTheThreadCount) {
  Engine one(Engine::Options{1});
  auto req = lab_request("vecadd", 100003, Backend::Cpu, "cpu", {"a", "b"});
  const auto r1 = lab::run_lab(one, req);
  const auto r2 = lab::run_lab(engine(), req);
  EXPECT_EQ(array_named(r1, "a").data, array_named(r2, "a").data);
  EXPECT_EQ(array_named(r1, "b").data, array_named(r2, "b").data);
  EXPECT_NE(array_named(r1, "a").data, array_named(r1, "b").data);
  req.seed = 2;
  EXPECT_NE(array_named(lab::run_lab(engine(), req), "a").data, array_named(r1, "a").data);
}

TEST(LabVecadd, UserInputsReplaceTheFill) {
  auto req = lab_request("vecadd", 3, Backend::Cpu, "cpu", {"c"});
  NdArray a{"a", DType::F32, {3}, {}};
  a.data.resize(12);
  const float values[3] = {1.5f, -2.0f, 1e30f};
  std::memcpy(a.data.data(), values, 12);
  NdArray b{"b", DType::F32, {3}, a.data};  // (assigning b.name trips GCC 12's false -Wrestrict on strings)
  req.inputs = {a, b};
  const auto result = lab::run_lab(engine(), req);
  const auto c = array_named(result, "c").as<float>();
  EXPECT_EQ(c[0], 3.0f);
  EXPECT_EQ(c[1], -4.0f);
  EXPECT_EQ(c[2], 2e30f);
}

void expect_usage(const lab::LabRequest& req, const std::string& needle) {
  try {
    lab::run_lab(engine(), req);
    ADD_FAILURE() << "no error; expected one containing '" << needle << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage) << e.full_message();
    EXPECT_NE(e.full_message().find(needle), std::string::npos) << e.full_message();
  }
}

TEST(LabVecadd, RefusesBadRequestsBeforeTakingMemory) {
  expect_usage(lab_request("vecadd", (std::int64_t(1) << 30) + 1, Backend::Cpu, "cpu"), "n = 1073741825 is out of range");
  auto r = lab_request("vecadd", 1000, Backend::Cpu, "cpu");
  r.streams = 0;
  expect_usage(r, "--streams 0");
  r.streams = 4;
  expect_usage(r, "CUDA backend");
  r = lab_request("vecadd", 1000, Backend::Cpu, "cpu");
  r.block = BlockShape{256, 1};
  expect_usage(r, "block shape applies to the CUDA backend");
  r = lab_request("vecadd", 1000, Backend::Cpu, "cpu");
  r.host = lab::HostMode::Pinned;
  expect_usage(r, "--host pinned applies to the CUDA backend");
  expect_usage(lab_request("vecadd", 1000, Backend::Cpu, "naive"), "runs on the cuda backend");
  expect_usage(lab_request("vecadd", 1000, Backend::Cpu, "warp"), "has no variant 'warp'");
  r = lab_request("vecadd", 1000, Backend::Cpu, "cpu");
  r.inputs = {NdArray{"a", DType::F64, {1000}, std::vector<std::byte>(8000)}};
  expect_usage(r, "the file holds f64 of shape (1000)");
  r.inputs = {NdArray{"a", DType::F32, {999}, std::vector<std::byte>(3996)}};
  expect_usage(r, "f32 of shape (1000)");
  r.inputs = {NdArray{"c", DType::F32, {1000}, std::vector<std::byte>(4000)}};
  expect_usage(r, "no input array 'c'");
  r.inputs.clear();
  r.keep = {"d"};
  expect_usage(r, "no array 'd'");
  r = lab_request("box", 1000, Backend::Cpu, "cpu");
  expect_usage(r, "not a lab kernel");
}

}  // namespace
}  // namespace ks
