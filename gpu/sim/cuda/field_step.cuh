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
