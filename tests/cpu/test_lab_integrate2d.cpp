// integrate2d on the CPU: the closed forms against values derived by hand, the midpoint rule's error
// expansion against a double-precision midpoint sum computed here, the f32 samples and threaded sums within
// bounds derived here, and the requests refused before any work (singular and overflowing integrands, empty
// rectangles).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>
#include <string>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "engine/engine.hpp"
#include "lab/integrate2d/integrate_cpu.hpp"
#include "support/lab_sized_request.hpp"
#include "support/shared_pool.hpp"

namespace ks {
namespace {

using test::pool;

using lab::Integrand;
using lab::Rect;
constexpr double kPi = std::numbers::pi;

// f in double, written out here from the formulas (not the code under test).
double f_double(Integrand f, double x, double y) {
  switch (f) {
    case Integrand::SinCos:
      return std::sin(x) * std::cos(y);
    case Integrand::Gauss:
      return std::exp(-(x * x + y * y));
    case Integrand::Quadratic:
      return x * x + y * y;
    case Integrand::Poly:
      return x * x * x * y * y - 2 * x * y + 1;
    case Integrand::InvX:
      return 1 / x;
  }
  return 0;
}

// The midpoint rule in double with double coordinates: sum and sum |f| (times the cell area).
struct Midpoint {
  double value = 0, abs = 0;
};
Midpoint midpoint_double(Integrand f, const Rect& r, int nx, int ny) {
  const double hx = (r.x1 - r.x0) / nx, hy = (r.y1 - r.y0) / ny;
  long double s = 0, a = 0;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const double v = f_double(f, r.x0 + (i + 0.5) * hx, r.y0 + (j + 0.5) * hy);
      s += v;
      a += std::fabs(v);
    }
  return {double(s) * hx * hy, double(a) * hx * hy};
}

TEST(LabIntegrate2d, ClosedFormsMatchHandDerivedValues) {
  EXPECT_NEAR(lab::exact_integral(Integrand::SinCos, {0, kPi / 2, 0, kPi / 2}), 1.0, 1e-15);
  EXPECT_NEAR(lab::exact_integral(Integrand::SinCos, {0, kPi, 0, kPi / 2}), 2.0, 1e-15);
  EXPECT_NEAR(lab::exact_integral(Integrand::Gauss, {-6, 6, -6, 6}), kPi, 1e-14);  // erf(6) = 1 - 2e-17
  EXPECT_NEAR(lab::exact_integral(Integrand::Quadratic, {0, 1, 0, 1}), 2.0 / 3, 1e-15);
  EXPECT_NEAR(lab::exact_integral(Integrand::Quadratic, {-1, 2, 0, 3}), 36.0, 1e-13);  // 3*3 + 3*9
  EXPECT_NEAR(lab::exact_integral(Integrand::Poly, {0, 1, 0, 1}), 7.0 / 12, 1e-15);    // 1/12 - 1/2 + 1
  EXPECT_NEAR(lab::exact_integral(Integrand::Poly, {-1, 2, 1, 2}), 7.25, 1e-13);       // 35/4 - 9/2 + 3
  EXPECT_NEAR(lab::exact_integral(Integrand::InvX, {1, std::numbers::e, 0, 2}), 2.0, 1e-15);
  EXPECT_NEAR(lab::exact_integral(Integrand::InvX, {-std::numbers::e, -1, 0, 1}), -1.0, 1e-15);
}

TEST(LabIntegrate2d, ErrorExpansionIsExactForCubicPolynomials) {
  // exact - midpoint has no terms beyond those of the expansion for degree <= 3 in x and in y.
  for (Integrand f : {Integrand::Quadratic, Integrand::Poly})
    for (const Rect& r : {Rect{0, 1, 0, 1}, Rect{-1, 2, 1, 2}, Rect{-3, 0.5, -2, 4}})
      for (int n : {1, 3, 17}) {
        SCOPED_TRACE(std::string(lab::to_string(f)) + " n=" + std::to_string(n));
        const Midpoint m = midpoint_double(f, r, n, n + 2);
        const double predicted = lab::exact_integral(f, r) - lab::midpoint_error_estimate(f, r, n, n + 2);
        EXPECT_NEAR(m.value, predicted, 1e-12 * m.abs);
        if (n == 1) {
          EXPECT_NE(m.value, lab::exact_integral(f, r)) << "one cell is not exact";
        }
      }
}

TEST(LabIntegrate2d, ErrorExpansionLeadsForSmoothIntegrands) {
  for (Integrand f : {Integrand::SinCos, Integrand::Gauss, Integrand::InvX}) {
    SCOPED_TRACE(lab::to_string(f));
    const Rect r = f == Integrand::InvX ? Rect{0.5, 2, 0, 1} : Rect{-1, 2, -0.5, 1.5};
    const double exact = lab::exact_integral(f, r);
    const double e64 = exact - midpoint_double(f, r, 64, 64).value;
    const double e128 = exact - midpoint_double(f, r, 128, 128).value;
    EXPECT_NEAR(e64 / lab::midpoint_error_estimate(f, r, 64, 64), 1.0, 0.01);
    EXPECT_NEAR(e128 / e64, 0.25, 0.005) << "order h^2";
  }
}

// Rectangles and grids whose f32 coordinates are exact (dyadic ends, power-of-two sides): the only difference
// from the double midpoint sum is f in f32, within `per_sample` relative to |f| (or a majorant for poly).
TEST(LabIntegrate2d, CpuSumsTheF32SamplesWithinDerivedBounds) {
  struct Case {
    Integrand f;
    Rect r;
    double per_sample;  // relative error of one f32 sample
  };
  const double u = std::ldexp(1.0, -24);
  const Case cases[] = {{Integrand::Quadratic, {0, 2, -1, 1}, 3 * u},
                        {Integrand::Poly, {0, 2, -1, 1}, 8 * u},
                        {Integrand::SinCos, {0, 2, -1, 1}, 8 * u},
                        {Integrand::Gauss, {0, 1, 0, 1}, 16 * u},
                        {Integrand::InvX, {1, 2, 0, 1}, u}};
  for (const Case& c : cases)
    for (int n : {1, 32, 1024}) {
      SCOPED_TRACE(std::string(lab::to_string(c.f)) + " n=" + std::to_string(n));
      const lab::MidpointGrid g = lab::make_midpoint_grid(c.f, c.r, n, n);
      const Midpoint m = midpoint_double(c.f, c.r, n, n);
      // poly: bound by the magnitudes of its terms (|x^3 y^2| + |2xy| + 1 <= 8 + 4 + 1 on this rectangle).
      const double magnitude = c.f == Integrand::Poly ? 13.0 * 4 : m.abs;
      const double sample_bound = c.per_sample * magnitude;
      const double f64 =
          lab::midpoint_integral(lab::integrate_sum_cpu(g, lab::Accumulate::F64, pool()), c.r, n, n);
      EXPECT_NEAR(f64, m.value, sample_bound + 1e-12 * m.abs);
      const lab::SumReference ref = lab::integrate_reference(g, pool());
      const double f32 = lab::integrate_sum_cpu(g, lab::Accumulate::F32, pool());
      EXPECT_LE(std::fabs(f32 - ref.sum),
                lab::sum_error_bound(lab::Accumulate::F32, g.samples(), ref.sum_abs));
    }
}

TEST(LabIntegrate2d, SumsDoNotDependOnTheThreadCount) {
  ThreadPool one(1), three(3);
  const lab::MidpointGrid g = lab::make_midpoint_grid(Integrand::SinCos, {0, 3, 0, 1}, 1025, 31);
  for (auto acc : {lab::Accumulate::F32, lab::Accumulate::F64})
    EXPECT_EQ(lab::integrate_sum_cpu(g, acc, one), lab::integrate_sum_cpu(g, acc, three));
}

void expect_usage(const std::function<void()>& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no error (expected one mentioning '" << needle << "')";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(e.full_message().find(needle), std::string::npos) << e.full_message();
  }
}

TEST(LabIntegrate2d, RefusesWhatCannotBeIntegrated) {
  expect_usage([] { lab::make_midpoint_grid(Integrand::InvX, {-1, 1, 0, 1}, 8, 8); }, "x = 0");
  expect_usage([] { lab::make_midpoint_grid(Integrand::InvX, {0, 1, 0, 1}, 8, 8); }, "x = 0");
  expect_usage([] { lab::make_midpoint_grid(Integrand::SinCos, {1, 1, 0, 1}, 8, 8); }, "less than");
  expect_usage([] { lab::make_midpoint_grid(Integrand::SinCos, {0, 1, 2, 1}, 8, 8); }, "less than");
  expect_usage([] { lab::make_midpoint_grid(Integrand::SinCos, {0, 1, 0, 1}, 0, 8); }, "nx");
  expect_usage([] { lab::make_midpoint_grid(Integrand::SinCos, {0, 1, 0, 1}, 8, 65537); }, "ny");
  // 1/x next to 0 overflows f32 (samples near 1e-42): not a finite sum.
  expect_usage(
      [] {
        lab::check_integrand_finite(lab::make_midpoint_grid(Integrand::InvX, {1e-42, 1e-41, 0, 1}, 4, 4),
                                    false);
      },
      "overflows f32");
  // x^3 y^2 up to 1e35 on a million samples overflows an f32 sum, not an f64 one.
  const lab::MidpointGrid big = lab::make_midpoint_grid(Integrand::Poly, {0, 1e7, 0, 1e7}, 1024, 1024);
  expect_usage([&] { lab::check_integrand_finite(big, true); }, "accumulate=f64");
  EXPECT_NO_THROW(lab::check_integrand_finite(big, false));
  EXPECT_NO_THROW(
      lab::check_integrand_finite(lab::make_midpoint_grid(Integrand::InvX, {1e-3, 1, 0, 1}, 4, 4), true));
}

// ---- through the lab framework
// --------------------------------------------------------------------------------

Engine& engine() {
  static Engine e(Engine::Options{2});
  return e;
}

TEST(LabIntegrate2d, RunsEndToEndOnTheCpu) {
  // The default: sin(x) cos(y) over [0, pi] x [0, pi/2], exactly 2.
  const auto r =
      lab::run_lab(engine(), test::sized_request("integrate2d", lab::LabSize::grid(256, 128), Backend::Cpu,
                                                 "cpu", {"accumulate=f64"}, {"sum"}));
  EXPECT_NEAR(test::fact_number(r.report, "exact integral"), 2.0, 1e-14);
  const double error = test::fact_number(r.report, "midpoint integral") - 2.0;
  const double hx = kPi / 256, hy = kPi / 2 / 128;
  // f_xx = f_yy = -f: exact - midpoint = -(hx^2 + hy^2)/24 * I, so the midpoint sum is high by that much.
  const double expected = (hx * hx + hy * hy) / 24 * 2.0;
  EXPECT_NEAR(test::fact_number(r.report, "expected midpoint error"), expected, 1e-3 * expected);
  EXPECT_NEAR(error, expected, 0.05 * expected);
  EXPECT_EQ(r.report.cost.operations, 8u * 256 * 128);
  EXPECT_EQ(test::array_named(r, "sum").type, DType::F64);
}

TEST(LabIntegrate2d, RunLabRefusesSingularAndEmptyRequests) {
  expect_usage(
      [] {
        lab::run_lab(engine(), test::sized_request("integrate2d", lab::LabSize::grid(16, 16), Backend::Cpu,
                                                   "cpu", {"integrand=invx"}));
      },
      "x = 0");
  expect_usage(
      [] {
        lab::run_lab(engine(), test::sized_request("integrate2d", lab::LabSize::grid(16, 16), Backend::Cpu,
                                                   "cpu", {"x0=2", "x1=1"}));
      },
      "less than");
  expect_usage(
      [] {
        lab::run_lab(engine(),
                     test::sized_request("integrate2d", lab::LabSize::grid(65537, 16), Backend::Cpu, "cpu"));
      },
      "65536");
}

}  // namespace
}  // namespace ks
