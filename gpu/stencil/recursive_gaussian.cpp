#include "stencil/recursive_gaussian.hpp"

#include <cmath>
#include <complex>
#include <cstddef>

namespace ks {

namespace {

using Pole = std::complex<double>;

// The poles of van Vliet, Young and Verbeek's third-order filter for sigma 2 ("Recursive Gaussian derivative
// filters", ICPR 1998; the set fitted in the maximum norm), as d: the causal filter is prod 1 / (1 - z^-1 / d).
const Pole kPoles[3] = {{1.41650, 1.00829}, {1.41650, -1.00829}, {1.86543, 0.0}};

// The variance of the causal then anti-causal filter with poles d: each pole's geometric response adds
// p / (1 - p)^2 = d / (d - 1)^2 per direction.
double variance(const Pole (&d)[3]) {
  Pole v = 0;
  for (const Pole& x : d) v += 2.0 * x / ((x - 1.0) * (x - 1.0));
  return v.real();
}

// The poles for sigma: those for sigma 2 raised to the power 1/q (which scales the filter's time axis by about
// q), with q found so that the variance is exactly sigma^2 (Newton's method from q = sigma / 2).
void poles_for(double sigma, Pole (&d)[3]) {
  auto scaled = [](double q, Pole (&out)[3]) {
    for (int i = 0; i < 3; ++i) out[i] = std::pow(kPoles[i], 1.0 / q);
  };
  double q = sigma / 2;
  for (int iteration = 0; iteration < 50; ++iteration) {
    Pole a[3], b[3];
    const double h = 1e-6 * q;
    scaled(q, a);
    scaled(q + h, b);
    const double f = variance(a) - sigma * sigma, slope = (variance(b) - variance(a)) / h;
    const double step = f / slope;
    q -= step;
    if (std::abs(step) < 1e-12 * q) break;
  }
  scaled(q, d);
}

}  // namespace

RecursiveGaussian recursive_gaussian(double sigma) {
  Pole d[3];
  poles_for(sigma, d);
  const Pole p0 = 1.0 / d[0], p1 = 1.0 / d[1], p2 = 1.0 / d[2];
  // 1 - a1 z^-1 - a2 z^-2 - a3 z^-3 = prod (1 - p z^-1)
  const double a1 = (p0 + p1 + p2).real(), a2 = -(p0 * p1 + p0 * p2 + p1 * p2).real(), a3 = (p0 * p1 * p2).real();
  const double b = 1 - (a1 + a2 + a3);

  // One pass's impulse response over far more samples than it lasts (it decays geometrically: the filter is
  // stable), then the cut: the first n past which the sum of |h| (h may swing around zero) is below the limit.
  const std::size_t length = std::size_t(40 * sigma) + 64;
  std::vector<double> h(length, 0.0);
  for (std::size_t n = 0; n < length; ++n) {
    h[n] = n == 0 ? b : 0.0;
    if (n >= 1) h[n] += a1 * h[n - 1];
    if (n >= 2) h[n] += a2 * h[n - 2];
    if (n >= 3) h[n] += a3 * h[n - 3];
  }
  std::size_t warmup = length;
  double rest = 0;
  while (warmup > 0 && rest + std::abs(h[warmup - 1]) <= kRecursiveTailWeight) rest += std::abs(h[--warmup]);

  RecursiveGaussian f;
  f.b = float(b);
  f.a1 = float(a1);
  f.a2 = float(a2);
  f.a3 = float(a3);
  f.warmup = int(warmup);
  for (std::size_t n = 0; n < warmup + 3; ++n) f.tail.push_back(float(h[n]));
  return f;
}

}  // namespace ks
