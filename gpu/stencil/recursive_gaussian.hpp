#pragma once
// The recursive (IIR) Gaussian of the gaussian kernel's `recursive` variants: Young and van Vliet's third-order
// filter (Signal Processing 44, 1995), run causally then anti-causally along every row and then every column, so
// that a pixel costs the same few multiply-adds whatever sigma is. One pass along a line of samples x:
//   causal       w[n] = b x[n] + a1 w[n-1] + a2 w[n-2] + a3 w[n-3]
//   anti-causal  v[n] = b w[n] + a1 v[n+1] + a2 v[n+2] + a3 v[n+3]
// with b = 1 - (a1 + a2 + a3), so a constant line stays constant (unit gain).
//
// Borders, in every built-in mode, by the border-extended line itself (an equivalent of Triggs and Sdika's
// initial conditions, which are exact only for a constant extension, i.e. replicate and constant): the line is
// read through core/border_remap.hpp's remap, as the window filters read it.
// - The causal pass starts `warmup` samples before the line's first pixel, in the steady state of the first
//   sample read there (w = x), and runs over the extension to the first pixel.
// - The anti-causal pass starts at the line's last pixel from the exact state the extension after it gives:
//   v[N + k] = sum_j h[j] w[N + k + j] (k = 0, 1, 2), h the impulse response of one pass, accumulated while the
//   causal pass continues over the extension for `warmup` + 2 samples (`tail` holds h[0 .. warmup + 2]).
// Both truncate the line's extension where the remaining impulse response weighs less than kTailWeight (the sum
// of |h| beyond `warmup`), so the borders' error is below kTailWeight times the image's value range: far below
// the filter's own difference from the exact Gaussian (README: its measured accuracy).
#include <vector>

namespace ks {

struct RecursiveGaussian {
  float b = 1, a1 = 0, a2 = 0, a3 = 0;
  int warmup = 0;           // extension samples read before a line's first and after its last pixel
  std::vector<float> tail;  // h[0 .. warmup + 2]: one pass's impulse response
};

// The weight of the impulse response the border extension may leave out (see above).
inline constexpr double kRecursiveTailWeight = 1e-5;

// The smallest sigma Young and van Vliet's fit of q covers; below it the filter is not a Gaussian.
inline constexpr double kRecursiveMinSigma = 0.5;

// The filter for this sigma (>= kRecursiveMinSigma, checked by the caller).
RecursiveGaussian recursive_gaussian(double sigma);

}  // namespace ks
