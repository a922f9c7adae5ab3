#pragma once
// The recursive (IIR) Gaussian of the gaussian kernel's recursive variants: Deriche's fourth-order approximation
// ("Recursively implementing the Gaussian and its derivatives", INRIA RR-1893, 1993), run along every row and
// then every column, so that a pixel costs the same few multiply-adds whatever sigma is. Deriche fits
//   g(n) ~ sum over k = 0, 1 of (alpha_k cos(omega_k n / sigma) + beta_k sin(omega_k n / sigma)) e^(-lambda_k n / sigma)
// for n >= 0, mirrored for n < 0. Each k is a second-order section, run causally (n >= 0) and anti-causally
// (n < 0) over the same input, and the four results add up:
//   causal       y+[n] = n0 x[n] + n1 x[n-1] + d1 y+[n-1] + d2 y+[n-2]
//   anti-causal  y-[n] = m1 x[n+1] + m2 x[n+2] + d1 y-[n+1] + d2 y-[n+2]
// Why sections, not the one fourth-order recursion Deriche writes: for large sigma the four poles crowd near 1,
// and rounding that recursion's coefficients to float moves them by as much as they are apart (sigma 64 is off by
// percents); a section's two poles are conjugates, far enough apart for float. Why Deriche, not Young and van
// Vliet's third-order filter: over any image of value range 1 a pass differs from the exact Gaussian by at most
// half the L1 norm of their difference, 0.03% for Deriche and 1% for Young-van Vliet (docs/PERF.md).
//
// Borders, in every built-in mode, by the border-extended line itself (an equivalent of Triggs and Sdika's initial
// conditions, which are exact only for a constant extension, i.e. replicate and constant): each pass starts
// `warmup` samples outside the line, in the steady state of the first sample it reads there, and runs over the
// extension (read through core/border_remap.hpp's remap, as the window filters read it) into the line. The
// start's error reaching the line is below kRecursiveTailWeight times the image's value range.
namespace ks {

struct RecursiveSection {
  float n0, n1;  // causal feed-forward
  float m1, m2;  // anti-causal feed-forward
  float d1, d2;  // feedback, both directions
  // The outputs of the two directions for a constant input of 1 (their steady states, summing to the section's
  // share of the unit gain).
  float causal_gain, anticausal_gain;
};

struct RecursiveGaussian {
  RecursiveSection section[2];
  int warmup = 0;  // extension samples each pass reads before it reaches the line
};

// The weight of the impulse response a pass's start may leave out (see above).
inline constexpr double kRecursiveTailWeight = 1e-5;

// The smallest sigma the recursive variants take: below it Deriche's fit is no longer within 0.5% of the
// sampled Gaussian (README: the measured accuracy).
inline constexpr double kRecursiveMinSigma = 1.0;

// The filter for this sigma (>= kRecursiveMinSigma, checked by the caller).
RecursiveGaussian recursive_gaussian(double sigma);

}  // namespace ks
