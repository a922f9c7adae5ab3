#pragma once
// One line of the recursive Gaussian (stencil/recursive_gaussian.hpp) as a CUDA thread runs it: the state of
// the causal and the anti-causal recursions of both sections, from the steady state a pass starts in.
#include <cuda_runtime.h>

#include "stencil/recursive_gaussian.hpp"

namespace ks::cuda {

// y+[p] = n0 x[p] + n1 x[p-1] + d1 y+[p-1] + d2 y+[p-2] for each section; advance returns their sum.
struct CausalLine {
  float xp;      // x[p-1]
  float a1, a2;  // section 0's last two outputs, newest first
  float b1, b2;  // section 1's

  // The steady state of a line that has been x for ever.
  __device__ __forceinline__ void start(const RecursiveGaussian& f, float x) {
    xp = x;
    a1 = a2 = f.section[0].causal_gain * x;
    b1 = b2 = f.section[1].causal_gain * x;
  }
  __device__ __forceinline__ float advance(const RecursiveGaussian& f, float x) {
    const RecursiveSection &s0 = f.section[0], &s1 = f.section[1];
    // The newest output last: one multiply-add per section waits for the step before.
    const float a = fmaf(s0.d1, a1, fmaf(s0.d2, a2, fmaf(s0.n1, xp, s0.n0 * x)));
    const float b = fmaf(s1.d1, b1, fmaf(s1.d2, b2, fmaf(s1.n1, xp, s1.n0 * x)));
    xp = x;
    a2 = a1;
    a1 = a;
    b2 = b1;
    b1 = b;
    return a + b;
  }
};

// y-[p] = m1 x[p+1] + m2 x[p+2] + d1 y-[p+1] + d2 y-[p+2] for each section, walking p downwards: advance(x[p])
// returns the sum at p (which needs only the samples after p), then takes x[p] in.
struct AnticausalLine {
  float x1, x2;  // x[p+1], x[p+2]
  float a1, a2;
  float b1, b2;

  __device__ __forceinline__ void start(const RecursiveGaussian& f, float x) {
    x1 = x2 = x;
    a1 = a2 = f.section[0].anticausal_gain * x;
    b1 = b2 = f.section[1].anticausal_gain * x;
  }
  __device__ __forceinline__ float advance(const RecursiveGaussian& f, float x) {
    const RecursiveSection &s0 = f.section[0], &s1 = f.section[1];
    const float a = fmaf(s0.d1, a1, fmaf(s0.d2, a2, fmaf(s0.m2, x2, s0.m1 * x1)));
    const float b = fmaf(s1.d1, b1, fmaf(s1.d2, b2, fmaf(s1.m2, x2, s1.m1 * x1)));
    x2 = x1;
    x1 = x;
    a2 = a1;
    a1 = a;
    b2 = b1;
    b1 = b;
    return a + b;
  }
};

}  // namespace ks::cuda
