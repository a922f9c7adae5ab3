#pragma once
// What the field kernels (heat, Gray-Scott) share: the per-cell update as a functor over the fields of one
// cell (sim_math.hpp's arithmetic, so CPU and CUDA round alike), the outside value of a fixed boundary, and
// the dispatch from a model to the functor.
#include "sim/cuda/sim_launch.cuh"

namespace ks::cuda {

struct HeatStep {
  static constexpr int kFields = 1;
  static constexpr const char* kName = "heat";
  sim::HeatCoefficients c;
  __device__ __forceinline__ void operator()(const float (&cell)[1], const float (&sum)[1],
                                             float (&out)[1]) const {
    out[0] = sim::heat_update(cell[0], sum[0], c);
  }
};

struct GrayScottStep {
  static constexpr int kFields = 2;
  static constexpr const char* kName = "grayscott";
  sim::GrayScottCoefficients c;
  __device__ __forceinline__ void operator()(const float (&cell)[2], const float (&sum)[2],
                                             float (&out)[2]) const {
    sim::grayscott_update(cell[0], cell[1], sum[0], sum[1], c, out[0], out[1]);
  }
};

// The kernels that own 4 adjacent cells of a row (strip, temporal): cell k of a quad, the step of the 4 cells,
// and their store.
__device__ __forceinline__ float lane_of(const float4& q, int k) {
  return k == 0 ? q.x : k == 1 ? q.y : k == 2 ? q.z : q.w;
}
__device__ __forceinline__ float& lane_of(float4& q, int k) { return k == 0 ? q.x : k == 1 ? q.y : k == 2 ? q.z : q.w; }

// next[f][k] = the step of cell k = 0..3 from cell[f][k] and the neighbour sums sum[f][k].
template <class Step>
__device__ __forceinline__ void step_quad(const Step& step, const float (&cell)[Step::kFields][4],
                                          const float (&sum)[Step::kFields][4], float (&next)[Step::kFields][4]) {
  constexpr int NF = Step::kFields;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    float c[NF], s[NF], n[NF];
#pragma unroll
    for (int f = 0; f < NF; ++f) c[f] = cell[f][k], s[f] = sum[f][k];
    step(c, s, n);
#pragma unroll
    for (int f = 0; f < NF; ++f) next[f][k] = n[f];
  }
}

// Cells x0 .. x0+3 of `row`: one 16-byte store, or at the row's end the cells left of w.
__device__ __forceinline__ void store_quad(float* row, int x0, int w, const float (&v)[4]) {
  float* dst = row + x0;
  if (x0 + 3 < w) {
    *reinterpret_cast<float4*>(dst) = make_float4(v[0], v[1], v[2], v[3]);
  } else {
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (x0 + k < w) dst[k] = v[k];  // constant indices keep `v` in registers
  }
}

// The boundary as the kernels read it: how to remap, and the value outside a fixed boundary (as the CPU
// reference: heat's boundary_value, 0 for Gray-Scott, which has no fixed boundary).
struct FieldEdges {
  sim::FieldBoundary boundary;
  float fixed;
};

inline FieldEdges field_edges(const sim::SimModel& m) {
  if (m.kind == sim::SimKind::Heat) return {m.heat.boundary, float(m.heat.boundary_value)};
  return {m.grayscott.boundary, 0.0f};
}

// Steps per pass of the temporal variant (the model's steps_per_pass parameter).
inline int field_steps_per_pass(const sim::SimModel& m) {
  return m.kind == sim::SimKind::Heat ? m.heat.steps_per_pass : m.grayscott.steps_per_pass;
}

// Calls f(step) with the model's functor.
template <class F>
decltype(auto) dispatch_field(const sim::SimModel& m, F&& f) {
  if (m.kind == sim::SimKind::Heat) return f(HeatStep{m.heat.coefficients()});
  return f(GrayScottStep{m.grayscott.coefficients()});
}

}  // namespace ks::cuda
