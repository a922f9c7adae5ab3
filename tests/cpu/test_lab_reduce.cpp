// reduce on the CPU: the seeded inputs and their exact sums (derived here in integers), the compensated
// reference, the threaded f32/f64 sums within the rounding bound the test derives, independence from the
// thread count, and the kernel end to end through run_lab.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "engine/engine.hpp"
#include "lab/reduce/reduce_cpu.hpp"
#include "lab/reduce/reduce_input.hpp"
#include "lab/reduce/sum_lab.hpp"
#include "support/lab_sized_request.hpp"
#include "support/shared_pool.hpp"

namespace ks {
namespace {

using test::pool;

using lab::Accumulate;
using lab::ReduceDistribution;

const long long kSizes[] = {1, 31, 1025, (1 << 20) + 3};

std::vector<float> input(ReduceDistribution d, long long n, std::uint64_t seed = 7) {
  std::vector<float> x(static_cast<std::size_t>(n));
  lab::fill_reduce_input(x, d, seed, pool());
  return x;
}

// gamma_{n-1} * sum|x| with u = 2^-24, from Higham's bound for any summation order, derived here.
double f32_bound(long long n, double sum_abs) {
  const double ku = double(n - 1) * std::ldexp(1.0, -24);
  return ku / (1 - ku) * sum_abs;
}

double sum_abs(const std::vector<float>& x) {
  long double s = 0;
  for (float v : x) s += std::fabs(v);
  return double(s);
}

TEST(LabReduce, IntegerInputsSumExactlyInDouble) {
  for (long long n : kSizes) {
    SCOPED_TRACE(n);
    const auto x = input(ReduceDistribution::Integers, n);
    long long exact = 0;
    bool spread = false;
    for (float v : x) {
      ASSERT_EQ(v, std::trunc(v));
      ASSERT_GE(v, -1000.0f);
      ASSERT_LE(v, 1000.0f);
      exact += (long long)v;
      spread |= v != x[0];
    }
    EXPECT_TRUE(n == 1 || spread);
    EXPECT_EQ(lab::exact_dyadic_sum(x.data(), n, pool()), double(exact));
    EXPECT_EQ(lab::reduce_reference(x.data(), n, pool()).sum, double(exact));
    EXPECT_EQ(lab::reduce_cpu(x.data(), n, Accumulate::F64, pool()), double(exact));  // every partial exact
    EXPECT_LE(std::fabs(lab::reduce_cpu(x.data(), n, Accumulate::F32, pool()) - double(exact)),
              f32_bound(n, sum_abs(x)));
  }
}

TEST(LabReduce, UniformInputsAreMultiplesOfTwoToTheMinus24) {
  for (long long n : kSizes) {
    SCOPED_TRACE(n);
    const auto x = input(ReduceDistribution::Uniform, n);
    long long numerators = 0;
    for (float v : x) {
      ASSERT_GE(v, 0.0f);
      ASSERT_LT(v, 1.0f);
      const double k = std::ldexp(double(v), 24);
      ASSERT_EQ(k, std::trunc(k));
      numerators += (long long)k;
    }
    const double exact = std::ldexp(double(numerators), -24);  // < 2^53 numerators: exact
    EXPECT_EQ(lab::exact_dyadic_sum(x.data(), n, pool()), exact);
    EXPECT_EQ(lab::reduce_reference(x.data(), n, pool()).sum, exact);
    EXPECT_EQ(lab::reduce_cpu(x.data(), n, Accumulate::F64, pool()), exact);
    const double f32 = lab::reduce_cpu(x.data(), n, Accumulate::F32, pool());
    EXPECT_LE(std::fabs(f32 - exact), f32_bound(n, sum_abs(x)));
    if (n == kSizes[3]) {
      EXPECT_NE(f32, exact) << "2^20 values of [0, 1) in f32 pieces of 2^16 should round";
    }
  }
}

TEST(LabReduce, NormalInputsAgainstALongDoubleSum) {
  const long long n = kSizes[3];
  const auto x = input(ReduceDistribution::Normal, n);
  long double sum = 0, squares = 0;
  for (float v : x) {
    sum += v;
    squares += (long double)v * v;
  }
  EXPECT_LT(std::fabs(double(sum) / double(n)), 0.01) << "mean of a standard normal";
  EXPECT_NEAR(double(squares) / double(n), 1.0, 0.02) << "variance of a standard normal";
  EXPECT_FALSE(lab::exact_dyadic_sum(x.data(), n, pool())) << "normal values have full mantissas";
  const lab::SumReference ref = lab::reduce_reference(x.data(), n, pool());
  // A sequential long double sum is off by at most n * 2^-64 * sum|x| < 2^-43 sum|x|.
  EXPECT_LE(std::fabs(ref.sum - double(sum)), std::ldexp(sum_abs(x), -43));
  EXPECT_NEAR(ref.sum_abs, sum_abs(x), 1e-9 * sum_abs(x));
  EXPECT_LE(std::fabs(lab::reduce_cpu(x.data(), n, Accumulate::F32, pool()) - ref.sum),
            f32_bound(n, ref.sum_abs));
}

TEST(LabReduce, ResultsDoNotDependOnTheThreadCount) {
  ThreadPool one(1), three(3);
  const long long n = kSizes[3];
  std::vector<float> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n));
  lab::fill_reduce_input(a, ReduceDistribution::Normal, 3, one);
  lab::fill_reduce_input(b, ReduceDistribution::Normal, 3, three);
  ASSERT_EQ(a, b);
  for (Accumulate acc : {Accumulate::F32, Accumulate::F64})
    EXPECT_EQ(lab::reduce_cpu(a.data(), n, acc, one), lab::reduce_cpu(a.data(), n, acc, three));
  EXPECT_EQ(lab::reduce_reference(a.data(), n, one).sum, lab::reduce_reference(a.data(), n, three).sum);
  EXPECT_NE(input(ReduceDistribution::Normal, 64, 3), input(ReduceDistribution::Normal, 64, 4))
      << "seeds differ";
}

TEST(LabReduce, ErrorBoundFollowsHigham) {
  EXPECT_EQ(lab::sum_error_bound(Accumulate::F32, 1, 5.0), 0.0);
  const double u = std::ldexp(1.0, -24), k = double((1 << 20) - 1);
  EXPECT_DOUBLE_EQ(lab::sum_error_bound(Accumulate::F32, 1 << 20, 3.0), k * u / (1 - k * u) * 3.0);
  const double u64 = std::ldexp(1.0, -53);
  EXPECT_DOUBLE_EQ(lab::sum_error_bound(Accumulate::F64, 1 << 20, 1.0), k * u64 / (1 - k * u64));
  EXPECT_TRUE(std::isinf(lab::sum_error_bound(Accumulate::F32, (1LL << 24) + 1, 1.0)));
}

TEST(LabReduce, ChecksWithinTheBoundAndSaysWhenThereIsNone) {
  EXPECT_TRUE(lab::check_sum(10.0, 10.5, 0.5, "sum").agrees);
  EXPECT_FALSE(lab::check_sum(10.0, 10.5, 0.25, "sum").agrees);
  const lab::LabCheck none =
      lab::check_sum(10.0, 99.0, lab::sum_error_bound(Accumulate::F32, 1 << 25, 1.0), "sum");
  EXPECT_FALSE(none.checked) << "an f32 sum of 2^25 values has no a-priori bound";
  EXPECT_NE(none.detail.find("no a-priori rounding bound"), std::string::npos) << none.detail;
}

TEST(LabReduce, UnknownNamesAreUsageErrors) {
  for (auto f : {+[] { lab::accumulate_from_string("f16"); }, +[] { lab::sum_variant_from_string("tree"); },
                 +[] { lab::reduce_distribution_from_string("gaussian"); }}) {
    try {
      f();
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage);
      EXPECT_FALSE(e.hint().empty());
    }
  }
}

// ---- through the lab framework
// --------------------------------------------------------------------------------

Engine& engine() {
  static Engine e(Engine::Options{2});
  return e;
}

TEST(LabReduce, RunsEndToEndOnTheCpu) {
  for (const char* acc : {"accumulate=f32", "accumulate=f64"}) {
    SCOPED_TRACE(acc);
    const long long n = kSizes[3];
    const auto r =
        lab::run_lab(engine(), test::sized_request("reduce", lab::LabSize::elements(n), Backend::Cpu, "cpu",
                                                   {"distribution=integers", acc}, {"x", "sum"}));
    const auto x = test::array_named(r, "x").as<float>();
    long long exact = 0;
    for (float v : x) exact += (long long)v;
    const double sum = test::fact_number(r.report, "sum");
    EXPECT_EQ(test::fact_number(r.report, "exact sum"), double(exact));
    EXPECT_EQ(test::fact_number(r.report, "compensated sum"), double(exact));
    EXPECT_LE(std::fabs(sum - double(exact)), test::fact_number(r.report, "rounding bound"));
    const NdArray& out = test::array_named(r, "sum");
    ASSERT_EQ(out.count(), 1);
    EXPECT_EQ(out.type, std::string(acc) == "accumulate=f64" ? DType::F64 : DType::F32);
    EXPECT_EQ(r.report.cost.bytes, 4u * std::uint64_t(n));
    EXPECT_EQ(r.report.cost.operations, std::uint64_t(n));
  }
}

// Issue 23: the app showed "rounding bound 1.41e+14" for a sum of 8.4e6 (2^24 uniform values in f32). Higham's
// gamma_(n-1) is right there, but useless: (n-1) u = 1 - 2^-24 puts gamma at 2^24 - 1, a bound of 2^24 - 1 times
// sum|x|. Past 2^23 values (gamma >= 1) an f32 sum has no useful bound: the check says so and the fact says why.
TEST(LabReduce, AnF32SumPast2To23ValuesHasNoUsefulBound) {
  const double u = std::ldexp(1.0, -24), k = double((1 << 23) - 1);
  EXPECT_DOUBLE_EQ(lab::sum_error_bound(Accumulate::F32, 1 << 23, 2.0), k * u / (1 - k * u) * 2.0);
  EXPECT_LT(lab::sum_error_bound(Accumulate::F32, 1 << 23, 1.0), 1.0);
  for (long long n : {(1LL << 23) + 1, 1LL << 24}) EXPECT_TRUE(std::isinf(lab::sum_error_bound(Accumulate::F32, n, 1.0))) << n;
  EXPECT_LT(lab::sum_error_bound(Accumulate::F64, 1LL << 30, 1.0), 1e-6) << "f64 keeps its bound";

  const lab::LabCheck unchecked =
      lab::check_sum(8388608.0, 8388612.0, lab::sum_error_bound(Accumulate::F32, 1 << 24, 8388608.0), "sum");
  EXPECT_FALSE(unchecked.checked);
  EXPECT_NE(unchecked.detail.find("no a-priori rounding bound"), std::string::npos) << unchecked.detail;
  const auto big = lab::run_lab(engine(), test::sized_request("reduce", lab::LabSize::elements((1 << 23) + 5),
                                                              Backend::Cpu, "cpu", {"accumulate=f32"}));
  const lab::LabFact& none = test::fact_named(big.report, "rounding bound");
  EXPECT_FALSE(none.number) << none.value;
  EXPECT_EQ(none.value.rfind("none in f32 past 2^23 values", 0), 0u) << none.value;

  // Below, the bound is given relative to the sum too: bound / |compensated sum|, from the facts' own numbers.
  const auto small = lab::run_lab(engine(), test::sized_request("reduce", lab::LabSize::elements(1001),
                                                                Backend::Cpu, "cpu", {"accumulate=f32"}));
  const double bound = test::fact_number(small.report, "rounding bound");
  const double relative = bound / std::fabs(test::fact_number(small.report, "compensated sum"));
  EXPECT_NE(test::fact_named(small.report, "rounding bound").value.find(fmt::format("({:.3g} of the sum;", relative)),
            std::string::npos)
      << test::fact_named(small.report, "rounding bound").value;
}

TEST(LabReduce, NormalValuesHaveNoExactSumFact) {
  const auto r = lab::run_lab(engine(), test::sized_request("reduce", lab::LabSize::elements(1025),
                                                            Backend::Cpu, "cpu", {"distribution=normal"}));
  EXPECT_FALSE(test::has_fact(r.report, "exact sum"));
  EXPECT_TRUE(test::has_fact(r.report, "compensated sum"));
}

TEST(LabReduce, RefusesSizesOutOfRange) {
  for (long long n : {0LL, (1LL << 30) + 1}) {
    try {
      lab::run_lab(engine(), test::sized_request("reduce", lab::LabSize::elements(n), Backend::Cpu, "cpu"));
      ADD_FAILURE() << n << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage) << e.what();
    }
  }
}

}  // namespace
}  // namespace ks
