// matmul on the CPU: the blocked, threaded reference against a straightforward triple loop in double on small
// odd sizes (exact on integer inputs, within gamma_K sum|a||b| on random ones), thread-count independence,
// OpenBLAS as the peer, the per-element check, sizes, and the kernel end to end through run_lab.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "engine/engine.hpp"
#include "lab/lab_fill.hpp"
#include "lab/matmul/matmul_check.hpp"
#include "lab/matmul/matmul_cpu.hpp"
#include "support/lab_sized_request.hpp"
#include "support/shared_pool.hpp"

namespace ks {
namespace {

using test::pool;

using lab::MatmulShape;

const MatmulShape kShapes[] = {{1, 1, 1}, {7, 13, 5}, {129, 65, 33}, {130, 600, 300}};

struct Inputs {
  std::vector<float> a, b;
};
Inputs random_inputs(const MatmulShape& s, bool integers) {
  Inputs in{std::vector<float>(std::size_t(s.m * s.k)), std::vector<float>(std::size_t(s.k * s.n))};
  lab::fill_uniform(in.a, 5, 1, -1.0f, 1.0f, pool());
  lab::fill_uniform(in.b, 5, 2, -1.0f, 1.0f, pool());
  if (integers)
    for (auto* v : {&in.a, &in.b})
      for (float& x : *v) x = std::round(x * 8);  // -8 .. 8
  return in;
}

// C in double by the definition, and sum_k |a_ik| |b_kj| for the bound.
struct Triple {
  std::vector<double> c, abs;
};
Triple triple_loop(const Inputs& in, const MatmulShape& s) {
  Triple t{std::vector<double>(std::size_t(s.m * s.n)), std::vector<double>(std::size_t(s.m * s.n))};
  for (long long i = 0; i < s.m; ++i)
    for (long long j = 0; j < s.n; ++j) {
      double c = 0, a = 0;
      for (long long p = 0; p < s.k; ++p) {
        c += double(in.a[i * s.k + p]) * in.b[p * s.n + j];
        a += std::fabs(double(in.a[i * s.k + p]) * in.b[p * s.n + j]);
      }
      t.c[i * s.n + j] = c;
      t.abs[i * s.n + j] = a;
    }
  return t;
}

double gamma_k(long long k) {
  const double ku = double(k) * std::ldexp(1.0, -24);
  return ku / (1 - ku);
}

TEST(LabMatmul, CpuReferenceAgainstTheTripleLoop) {
  for (const MatmulShape& s : kShapes)
    for (bool integers : {true, false}) {
      SCOPED_TRACE(lab::to_string(s) + (integers ? " integers" : " uniform"));
      const Inputs in = random_inputs(s, integers);
      std::vector<float> c(std::size_t(s.m * s.n), -1.0f);
      lab::matmul_cpu(in.a.data(), in.b.data(), c.data(), s, pool());
      const Triple t = triple_loop(in, s);
      for (std::size_t i = 0; i < c.size(); ++i) {
        if (integers)
          ASSERT_EQ(double(c[i]), t.c[i]) << i;  // integer products and sums below 2^24: exact
        else
          ASSERT_LE(std::fabs(c[i] - t.c[i]), gamma_k(s.k) * t.abs[i]) << i;
      }
    }
}

TEST(LabMatmul, CpuReferenceDoesNotDependOnTheThreadCount) {
  const MatmulShape s{129, 65, 300};
  const Inputs in = random_inputs(s, false);
  ThreadPool one(1), three(3);
  std::vector<float> c1(std::size_t(s.m * s.n)), c3(c1.size());
  lab::matmul_cpu(in.a.data(), in.b.data(), c1.data(), s, one);
  lab::matmul_cpu(in.a.data(), in.b.data(), c3.data(), s, three);
  EXPECT_EQ(c1, c3);
}

TEST(LabMatmul, OpenBlasPeerAgrees) {
  if (!lab::openblas_available()) GTEST_SKIP() << lab::openblas_unavailable_reason();
  for (const MatmulShape& s : kShapes) {
    SCOPED_TRACE(lab::to_string(s));
    const Inputs in = random_inputs(s, false);
    std::vector<float> c(std::size_t(s.m * s.n));
    lab::matmul_openblas(in.a.data(), in.b.data(), c.data(), s, 2);
    const Triple t = triple_loop(in, s);
    for (std::size_t i = 0; i < c.size(); ++i)
      ASSERT_LE(std::fabs(c[i] - t.c[i]), gamma_k(s.k) * t.abs[i]) << i;
  }
}

TEST(LabMatmul, CheckFindsAWrongElementAndPassesAnExactOne) {
  const MatmulShape s{7, 13, 5};
  const Inputs in = random_inputs(s, false);
  std::vector<float> ref(std::size_t(s.m * s.n));
  lab::matmul_cpu(in.a.data(), in.b.data(), ref.data(), s, pool());
  const double factor = lab::matmul_fp32_factor(s.k);
  EXPECT_DOUBLE_EQ(factor, 2 * gamma_k(s.k));
  EXPECT_GT(lab::matmul_tf32_factor(s.k), std::ldexp(1.0, -9));
  lab::LabCheck same =
      lab::compare_matmul(in.a.data(), in.b.data(), ref.data(), ref.data(), s, factor, pool());
  EXPECT_TRUE(same.checked && same.agrees) << same.detail;
  auto wrong = ref;
  wrong[3 * 13 + 4] += 1e-3f;  // far beyond 2 gamma_5 |a_i| |b_j| (about 1e-6)
  const lab::LabCheck c =
      lab::compare_matmul(in.a.data(), in.b.data(), ref.data(), wrong.data(), s, factor, pool());
  EXPECT_FALSE(c.agrees);
  EXPECT_NE(c.detail.find("C[3][4]"), std::string::npos) << c.detail;
  // Exactness (factor 0) fails on the smallest difference.
  auto ulp = ref;
  ulp[0] = std::nextafter(ulp[0], 10.0f);
  EXPECT_FALSE(lab::compare_matmul(in.a.data(), in.b.data(), ref.data(), ulp.data(), s, 0.0, pool()).agrees);
}

TEST(LabMatmul, ShapesParseAndStayWithinLimits) {
  EXPECT_EQ(lab::parse_matmul_shape("7x13x5"), (MatmulShape{7, 13, 5}));
  EXPECT_EQ(lab::parse_matmul_shape("4096"), (MatmulShape{4096, 4096, 4096}));
  EXPECT_EQ(lab::matmul_flops({7, 13, 5}), 2.0 * 7 * 13 * 5);
  EXPECT_EQ(lab::matmul_bytes({7, 13, 5}), 4u * (7 * 5 + 5 * 13 + 7 * 13));
  for (const char* bad : {"8193", "0x1x1", "7x13", "7x13x5x2", "axbxc", ""})
    EXPECT_THROW(lab::parse_matmul_shape(bad), Error) << bad;
}

// ---- through the lab framework
// --------------------------------------------------------------------------------

Engine& engine() {
  static Engine e(Engine::Options{2});
  return e;
}

TEST(LabMatmul, RunsEndToEndOnTheCpu) {
  const auto r =
      lab::run_lab(engine(), test::sized_request("matmul", lab::LabSize::matmul(7, 13, 5), Backend::Cpu,
                                                 "cpu", {"values=integers"}, {"A", "B", "C"}));
  const NdArray& a = test::array_named(r, "A");
  const NdArray& b = test::array_named(r, "B");
  const NdArray& c = test::array_named(r, "C");
  EXPECT_EQ(a.shape, (std::vector<std::int64_t>{7, 5}));
  EXPECT_EQ(b.shape, (std::vector<std::int64_t>{5, 13}));
  EXPECT_EQ(c.shape, (std::vector<std::int64_t>{7, 13}));
  const auto av = a.as<float>(), bv = b.as<float>(), cv = c.as<float>();
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 13; ++j) {
      double want = 0;
      for (int p = 0; p < 5; ++p) want += double(av[i * 5 + p]) * bv[p * 13 + j];
      ASSERT_EQ(double(cv[i * 13 + j]), want) << i << "," << j;
    }
  EXPECT_EQ(r.report.cost.operations, 2u * 7 * 13 * 5);
}

TEST(LabMatmul, OpenBlasVariantIsCheckedAgainstTheReference) {
  auto req = test::sized_request("matmul", lab::LabSize::matmul(129, 65, 33), Backend::Cpu, "openblas");
  if (!lab::openblas_available()) {
    EXPECT_THROW(lab::run_lab(engine(), req), Error);
    return;
  }
  const auto r = lab::run_lab(engine(), req);
  EXPECT_TRUE(r.report.check.checked);
  EXPECT_TRUE(r.report.check.agrees) << r.report.check.detail;
}

TEST(LabMatmul, RefusesSizesAndVariantsItCannotRun) {
  for (const auto& size : {lab::LabSize::matmul(8193, 1, 1), lab::LabSize::matmul(1, 1, 0)})
    EXPECT_THROW(lab::run_lab(engine(), test::sized_request("matmul", size, Backend::Cpu, "cpu")), Error);
  EXPECT_THROW(lab::run_lab(engine(), test::sized_request("matmul", lab::LabSize::matmul(8, 8, 8),
                                                          Backend::Cpu, "regtiled")),
               Error);
}

}  // namespace
}  // namespace ks
