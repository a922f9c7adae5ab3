#include "lab/integrate2d/integrand.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "core/enum_names.hpp"
#include "core/error.hpp"

namespace ks::lab {

namespace {

constexpr EnumName<Integrand> kIntegrandNames[] = {{Integrand::SinCos, "sincos"},
                                                   {Integrand::Gauss, "gauss"},
                                                   {Integrand::Quadratic, "quadratic"},
                                                   {Integrand::Poly, "poly"},
                                                   {Integrand::InvX, "invx"}};

double pow_diff(double a, double b, int k) {
  return std::pow(b, k) - std::pow(a, k);
}  // b^k - a^k

// The pieces of the error expansion (see midpoint_error_estimate): the integrals of f_xx, f_yy and f_xxyy
// over the rectangle, each from the antiderivatives (int f_xx dx = [f_x]).
struct SecondDerivativeIntegrals {
  double fxx = 0, fyy = 0, fxxyy = 0;
};

SecondDerivativeIntegrals second_derivative_integrals(Integrand f, const Rect& r) {
  const double w = r.x1 - r.x0, h = r.y1 - r.y0;
  switch (f) {
    case Integrand::SinCos: {
      const double i = exact_integral(f, r);  // f_xx = f_yy = -f, f_xxyy = f
      return {-i, -i, i};
    }
    case Integrand::Gauss: {
      const double half_sqrt_pi = std::sqrt(std::numbers::pi) / 2;
      const double gx = half_sqrt_pi * (std::erf(r.x1) - std::erf(r.x0));
      const double gy = half_sqrt_pi * (std::erf(r.y1) - std::erf(r.y0));
      const auto dg = [](double a, double b) {  // [g'] for g(t) = exp(-t^2): g' = -2 t exp(-t^2)
        return -2 * b * std::exp(-b * b) + 2 * a * std::exp(-a * a);
      };
      const double dx = dg(r.x0, r.x1), dy = dg(r.y0, r.y1);
      return {dx * gy, gx * dy, dx * dy};
    }
    case Integrand::Quadratic:
      return {2 * w * h, 2 * w * h, 0};
    case Integrand::Poly:  // f_xx = 6 x y^2, f_yy = 2 x^3, f_xxyy = 12 x
      return {pow_diff(r.x0, r.x1, 2) * pow_diff(r.y0, r.y1, 3), h * pow_diff(r.x0, r.x1, 4) / 2,
              6 * pow_diff(r.x0, r.x1, 2) * h};
    case Integrand::InvX:
      return {(1 / (r.x0 * r.x0) - 1 / (r.x1 * r.x1)) * h, 0, 0};  // f_xx = 2 / x^3
  }
  return {};
}

void require_side(const char* name, long long n) {
  if (n < 1 || n > kMaxGridSide)
    throw_usage(fmt::format("integrate2d: {} = {} points is out of range", name, n),
                fmt::format("use 1 to {} points per side (a side's index and the whole grid's must fit the "
                            "device's 32-bit sample index)",
                            kMaxGridSide));
}

void require_interval(const char* lo_name, double lo, const char* hi_name, double hi) {
  if (!std::isfinite(lo) || !std::isfinite(hi))
    throw_usage(fmt::format("integrate2d: {} and {} must be finite numbers", lo_name, hi_name));
  if (!(lo < hi))
    throw_usage(fmt::format("integrate2d: {} = {} must be less than {} = {}", lo_name, lo, hi_name, hi),
                "swap them (the integral over a reversed range is the negative) or widen the range");
}

}  // namespace

const char* to_string(Integrand f) noexcept {
  return name_of(kIntegrandNames, f);
}

const char* formula_text(Integrand f) noexcept {
  switch (f) {
    case Integrand::SinCos:
      return "sin(x)*cos(y)";
    case Integrand::Gauss:
      return "exp(-(x^2+y^2))";
    case Integrand::Quadratic:
      return "x^2+y^2";
    case Integrand::Poly:
      return "x^3*y^2-2*x*y+1";
    case Integrand::InvX:
      return "1/x";
  }
  return "?";
}

Integrand integrand_from_string(const std::string& s) {
  return value_named(kIntegrandNames, s, "integrand");
}

std::string singularity_reason(Integrand f, const Rect& r) {
  if (f == Integrand::InvX && r.x0 <= 0 && r.x1 >= 0)
    return fmt::format(
        "1/x is not integrable over x in [{}, {}]: the range contains x = 0, where it is infinite", r.x0,
        r.x1);
  return {};
}

MidpointGrid make_midpoint_grid(Integrand f, const Rect& r, long long nx, long long ny) {
  require_side("nx", nx);
  require_side("ny", ny);
  require_interval("x0", r.x0, "x1", r.x1);
  require_interval("y0", r.y0, "y1", r.y1);
  if (const std::string why = singularity_reason(f, r); !why.empty())
    throw_usage("integrate2d: " + why, "choose x0 > 0 or x1 < 0");
  MidpointGrid g;
  g.f = f;
  g.x0 = float(r.x0);
  g.y0 = float(r.y0);
  g.hx = float((r.x1 - r.x0) / double(nx));
  g.hy = float((r.y1 - r.y0) / double(ny));
  g.nx = unsigned(nx);
  g.ny = unsigned(ny);
  if (!(g.hx > 0) || !(g.hy > 0) || !std::isfinite(g.hx) || !std::isfinite(g.hy))
    throw_usage(fmt::format("integrate2d: the grid spacing {} x {} is not a positive f32 number",
                            (r.x1 - r.x0) / double(nx), (r.y1 - r.y0) / double(ny)),
                "use a wider rectangle or fewer points");
  return g;
}

double max_abs_sample(const MidpointGrid& g) {
  const double xs[] = {midpoint_x(g, 0), midpoint_x(g, g.nx - 1)},
               ys[] = {midpoint_y(g, 0), midpoint_y(g, g.ny - 1)};
  double m = 0;
  for (double x : xs)
    for (double y : ys) {
      x = std::fabs(x);
      y = std::fabs(y);
      switch (g.f) {
        case Integrand::SinCos:
        case Integrand::Gauss:
          m = 1;
          break;
        case Integrand::Quadratic:
          m = std::max(m, x * x + y * y);
          break;
        case Integrand::Poly:
          m = std::max(m, x * x * x * y * y + 2 * x * y + 1);
          break;  // a majorant
        case Integrand::InvX:
          m = std::max(m, double(1.0f / float(x)));
          break;  // as f32 computes it (inf, too)
      }
    }
  return m;
}

void check_integrand_finite(const MidpointGrid& g, bool f32_accumulation) {
  const double m = max_abs_sample(g);
  const double f32_max = double(std::numeric_limits<float>::max());
  if (!(m <= f32_max))
    throw_usage(
        fmt::format("integrate2d: {} overflows f32 at the grid's outermost samples (|f| up to {:.3g}, "
                    "f32 holds up to {:.3g}): the sum would not be finite",
                    formula_text(g.f), m, f32_max),
        g.f == Integrand::InvX ? "move the x range away from 0" : "use a smaller rectangle");
  if (f32_accumulation && m * double(g.samples()) > f32_max)
    throw_usage(
        fmt::format("integrate2d: {} samples of |f| up to {:.3g} can overflow an f32 sum (up to {:.3g})",
                    g.samples(), m, f32_max),
        "use accumulate=f64, fewer points or a smaller rectangle");
}

double exact_integral(Integrand f, const Rect& r) {
  const double w = r.x1 - r.x0, h = r.y1 - r.y0;
  switch (f) {
    case Integrand::SinCos:
      return (std::cos(r.x0) - std::cos(r.x1)) * (std::sin(r.y1) - std::sin(r.y0));
    case Integrand::Gauss:
      return std::numbers::pi / 4 * (std::erf(r.x1) - std::erf(r.x0)) * (std::erf(r.y1) - std::erf(r.y0));
    case Integrand::Quadratic:
      return pow_diff(r.x0, r.x1, 3) / 3 * h + w * pow_diff(r.y0, r.y1, 3) / 3;
    case Integrand::Poly:
      return pow_diff(r.x0, r.x1, 4) / 4 * pow_diff(r.y0, r.y1, 3) / 3 -
             pow_diff(r.x0, r.x1, 2) * pow_diff(r.y0, r.y1, 2) / 2 + w * h;
    case Integrand::InvX:
      return (std::log(std::fabs(r.x1)) - std::log(std::fabs(r.x0))) * h;
  }
  return 0;
}

double midpoint_error_estimate(Integrand f, const Rect& r, long long nx, long long ny) {
  const double hx = (r.x1 - r.x0) / double(nx), hy = (r.y1 - r.y0) / double(ny);
  const SecondDerivativeIntegrals d = second_derivative_integrals(f, r);
  return hx * hx / 24 * d.fxx + hy * hy / 24 * d.fyy - hx * hx * hy * hy / 576 * d.fxxyy;
}

}  // namespace ks::lab
