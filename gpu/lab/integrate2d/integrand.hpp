#pragma once
// integrate2d: the double integral of f(x, y) over [x0, x1] x [y0, y1] by the midpoint rule on an nx x ny
// grid, for built-in integrands with closed forms. The samples are evaluated in f32 by one function shared
// verbatim by the CPU and the CUDA kernels; the coordinates use separately rounded operations, so both
// backends sample the same points to the bit (the integrands' sinf/expf may differ by an ulp or two between
// host and device).
#include <cmath>
#include <string>
#include <type_traits>

#include "core/hd.hpp"
#include "core/rounded_math.hpp"  // add_rn, mul_rn

namespace ks::lab {

enum class Integrand {
  SinCos,     // sin(x) cos(y)
  Gauss,      // exp(-(x^2 + y^2))
  Quadratic,  // x^2 + y^2
  Poly,       // x^3 y^2 - 2 x y + 1
  InvX,       // 1 / x: not integrable over a rectangle that contains x = 0 (refused)
};

const char* to_string(Integrand f) noexcept;            // "sincos", "gauss", "quadratic", "poly", "invx"
const char* formula_text(Integrand f) noexcept;         // "sin(x)*cos(y)", ...
Integrand integrand_from_string(const std::string& s);  // usage Error for anything else

struct Rect {
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
};

// The largest grid side; nx * ny <= 2^32 keeps a sample's index in 32 bits on the device.
inline constexpr long long kMaxGridSide = 65536;

// The grid as the kernels see it: sample i (row-major, i < nx * ny) sits at
// x = x0 + (i % nx + 0.5) * hx, y = y0 + (i / nx + 0.5) * hy, all in f32.
struct MidpointGrid {
  Integrand f = Integrand::SinCos;
  float x0 = 0, hx = 0, y0 = 0, hy = 0;
  unsigned nx = 0, ny = 0;
  long long samples() const { return (long long)nx * ny; }
};

// Checks the request (1 <= nx, ny <= 65536, x0 < x1, y0 < y1, finite bounds, no singularity inside: usage
// Errors saying what to change) and builds the grid.
MidpointGrid make_midpoint_grid(Integrand f, const Rect& r, long long nx, long long ny);

// Why f cannot be integrated over r (1/x over a range containing 0), or empty.
std::string singularity_reason(Integrand f, const Rect& r);

// An upper bound of |f| over the grid's samples, from the corner samples (every integrand's magnitude, or a
// majorant of it, grows with |x| and |y|, or with 1/|x| for invx, so its largest value on the grid is at an
// outermost sample). Infinite when a sample overflows f32.
double max_abs_sample(const MidpointGrid& g);

// A usage Error when the sum cannot be finite: a sample overflows f32 (1/x next to 0), or n samples of up to
// max_abs_sample could overflow an f32 accumulation. Says what to change.
void check_integrand_finite(const MidpointGrid& g, bool f32_accumulation);

// The exact integral (closed form, in double).
double exact_integral(Integrand f, const Rect& r);

// The midpoint rule's expected error, exact - midpoint, from its error expansion:
//   hx^2/24 * int f_xx + hy^2/24 * int f_yy - hx^2 hy^2/576 * int f_xxyy   (h^2 order; the last term is h^4)
// exact for polynomials of degree <= 3 in x and in y (quadratic, poly), the leading terms otherwise.
double midpoint_error_estimate(Integrand f, const Rect& r, long long nx, long long ny);

// ---- the samples (host and device)
// ------------------------------------------------------------------------------

template <Integrand F>
KS_HD float integrand_value(float x, float y) {
  if constexpr (F == Integrand::SinCos) return mul_rn(sinf(x), cosf(y));
  if constexpr (F == Integrand::Gauss) return expf(-add_rn(mul_rn(x, x), mul_rn(y, y)));
  if constexpr (F == Integrand::Quadratic) return add_rn(mul_rn(x, x), mul_rn(y, y));
  if constexpr (F == Integrand::Poly) {
    const float x3y2 = mul_rn(mul_rn(mul_rn(x, x), x), mul_rn(y, y));
    return add_rn(add_rn(x3y2, -mul_rn(2.0f, mul_rn(x, y))), 1.0f);
  }
  if constexpr (F == Integrand::InvX) return 1.0f / x;  // IEEE division on both sides (nvcc: -prec-div=true)
  return 0.0f;
}

// The midpoint of column col (row row): x0 + (col + 0.5) hx, in f32 (col + 0.5 is exact below 2^23).
KS_HD float midpoint_x(const MidpointGrid& g, unsigned col) {
  return add_rn(g.x0, mul_rn(add_rn(float(col), 0.5f), g.hx));
}
KS_HD float midpoint_y(const MidpointGrid& g, unsigned row) {
  return add_rn(g.y0, mul_rn(add_rn(float(row), 0.5f), g.hy));
}

// Sample number i of the grid (i < nx * ny <= 2^32).
template <Integrand F>
KS_HD float midpoint_sample(const MidpointGrid& g, unsigned long long i) {
  const unsigned index = unsigned(i);
  const unsigned row = index / g.nx, col = index - row * g.nx;
  return integrand_value<F>(midpoint_x(g, col), midpoint_y(g, row));
}

// fn(std::integral_constant<Integrand, F>{}) for the runtime integrand f: one instantiation per integrand, so
// the inner loops of every backend are free of the switch.
template <class Fn>
decltype(auto) with_integrand(Integrand f, Fn&& fn) {
  switch (f) {
    case Integrand::SinCos:
      return fn(std::integral_constant<Integrand, Integrand::SinCos>{});
    case Integrand::Gauss:
      return fn(std::integral_constant<Integrand, Integrand::Gauss>{});
    case Integrand::Quadratic:
      return fn(std::integral_constant<Integrand, Integrand::Quadratic>{});
    case Integrand::Poly:
      return fn(std::integral_constant<Integrand, Integrand::Poly>{});
    case Integrand::InvX:
      break;
  }
  return fn(std::integral_constant<Integrand, Integrand::InvX>{});
}

}  // namespace ks::lab
