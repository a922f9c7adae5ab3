#include "stencil/recursive_gaussian.hpp"

#include <cmath>
#include <cstddef>
#include <vector>

namespace ks {

namespace {

// Deriche's fit of the Gaussian of sigma 1 (alpha, beta, lambda, omega of each section; RR-1893, table 1).
struct Fit {
  double alpha, beta, lambda, omega;
};
constexpr Fit kFit[2] = {{1.680, 3.735, 1.783, 0.6318}, {-0.6803, -0.2598, 1.723, 1.997}};

}  // namespace

RecursiveGaussian recursive_gaussian(double sigma) {
  RecursiveGaussian f;
  // Each section from its causal impulse response h(n) = (alpha cos(omega n) + beta sin(omega n)) e^(-lambda n)
  // (omega, lambda over sigma): poles e^(-lambda +- i omega), so d1 = 2 e^(-lambda) cos(omega), d2 = -e^(-2 lambda);
  // n0 = h(0), n1 = h(1) - d1 h(0); the anti-causal half (n >= 1, mirrored) m1 = h(1), m2 = d2 h(0).
  double n[2][2], m[2][2], sum = 0;
  for (int k = 0; k < 2; ++k) {
    const double lambda = kFit[k].lambda / sigma, omega = kFit[k].omega / sigma;
    const double h0 = kFit[k].alpha;
    const double h1 = (kFit[k].alpha * std::cos(omega) + kFit[k].beta * std::sin(omega)) * std::exp(-lambda);
    RecursiveSection& s = f.section[k];
    // The feedback in float first: the gains below are those of the rounded recursion, so the filter keeps a
    // constant image constant to float precision however close to 1 its poles are.
    s.d1 = float(2 * std::exp(-lambda) * std::cos(omega));
    s.d2 = float(-std::exp(-2 * lambda));
    n[k][0] = h0;
    n[k][1] = h1 - double(s.d1) * h0;
    m[k][0] = h1;
    m[k][1] = double(s.d2) * h0;
    const double denominator = 1 - double(s.d1) - double(s.d2);
    sum += (n[k][0] + n[k][1] + m[k][0] + m[k][1]) / denominator;
  }
  for (int k = 0; k < 2; ++k) {  // unit gain over the whole line
    RecursiveSection& s = f.section[k];
    const double denominator = 1 - double(s.d1) - double(s.d2);
    s.n0 = float(n[k][0] / sum);
    s.n1 = float(n[k][1] / sum);
    s.m1 = float(m[k][0] / sum);
    s.m2 = float(m[k][1] / sum);
    s.causal_gain = float((double(s.n0) + double(s.n1)) / denominator);
    s.anticausal_gain = float((double(s.m1) + double(s.m2)) / denominator);
  }

  // The warm-up: the first n past which the impulse response's |h| sums to less than kRecursiveTailWeight. Every
  // section decays at least as fast as e^(-lambda n) with the smaller lambda, so the sum is bounded by its
  // geometric tail.
  double lambda = kFit[0].lambda;
  for (const Fit& k : kFit) lambda = std::fmin(lambda, k.lambda);
  const double decay = std::exp(-lambda / sigma);
  double amplitude = 0;  // a bound on |h(n)| / e^(-lambda n)
  for (const Fit& k : kFit) amplitude += std::hypot(k.alpha, k.beta) / sum;
  int warmup = 0;
  while (amplitude * std::pow(decay, warmup) / (1 - decay) > kRecursiveTailWeight) ++warmup;
  f.warmup = warmup;
  return f;
}

}  // namespace ks
