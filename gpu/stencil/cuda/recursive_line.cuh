#pragma once
// One line of the recursive Gaussian (stencil/recursive_gaussian.hpp) as a CUDA thread runs it: the filter's
// coefficients, and the state of a line's recursion from its warm-up through the anti-causal pass.
#include <cuda_runtime.h>

namespace ks::cuda {

struct RecursiveLine {
  float b, a1, a2, a3;
  int warmup;               // extension samples before and after a segment of a line
  const float* tail;        // device: h[0 .. warmup + 2], one pass's impulse response

  // The next output from input x and the last three outputs, newest first (only the last multiply-add waits
  // for the step before).
  __device__ __forceinline__ float step(float x, float v1, float v2, float v3) const {
    return fmaf(a1, v1, fmaf(a2, v2, fmaf(a3, v3, b * x)));
  }
};

struct LineState {
  float v1, v2, v3;  // the last three outputs of the pass under way, newest first
  float s0, s1, s2;  // the anti-causal start state v[end], v[end + 1], v[end + 2], as it accumulates

  // The causal pass's steady state for a line that has been x for ever.
  __device__ __forceinline__ void start(float x) {
    v1 = v2 = v3 = x;
    s0 = s1 = s2 = 0.f;
  }
  __device__ __forceinline__ float advance(const RecursiveLine& f, float x) {
    const float v = f.step(x, v1, v2, v3);
    v3 = v2;
    v2 = v1;
    v1 = v;
    return v;
  }
  // w, the causal output t samples past the segment's end, into the anti-causal start state.
  __device__ __forceinline__ void accumulate(const RecursiveLine& f, int t, float w) {
    s0 = fmaf(f.tail[t], w, s0);
    if (t >= 1) s1 = fmaf(f.tail[t - 1], w, s1);
    if (t >= 2) s2 = fmaf(f.tail[t - 2], w, s2);
  }
  __device__ __forceinline__ void start_anticausal() {
    v1 = s0;
    v2 = s1;
    v3 = s2;
  }
};

}  // namespace ks::cuda
