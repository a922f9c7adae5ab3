#pragma once
// Host-side weight layouts the kernels read. A gradient's two filters may have different radii; both are embedded,
// centred, in the plan's common window (radius_x, radius_y) with zeros around, so one loop serves both.
// u8 kernels take the integer weights (exact sums), f32 kernels the float ones.
#include <cstdint>
#include <type_traits>
#include <vector>

#include "stencil/stencil_plan.hpp"

namespace ks::cuda {

template <class A>
const std::vector<A>& weights_of(const LinearFilter& f) {
  if constexpr (std::is_same_v<A, std::int32_t>) return f.iw;
  else return f.w;
}

template <class A>
const std::vector<A>& axis_weights_of(const LinearFilter& f, bool x_axis) {
  const auto& s = *f.separable;
  if constexpr (std::is_same_v<A, std::int32_t>) return x_axis ? s.iwx : s.iwy;
  else return x_axis ? s.wx : s.wy;
}

// The 2-D window of `f`, row-major, embedded in (2*ry+1) x (2*rx+1).
template <class A>
std::vector<A> window_weights(const LinearFilter& f, int rx, int ry) {
  const int w = 2 * rx + 1, h = 2 * ry + 1;
  std::vector<A> out(std::size_t(w) * std::size_t(h), A(0));
  const auto& src = weights_of<A>(f);
  for (int y = 0; y < f.height(); ++y)
    for (int x = 0; x < f.width(); ++x)
      out[std::size_t(y + ry - f.ry) * w + std::size_t(x + rx - f.rx)] = src[std::size_t(y * f.width() + x)];
  return out;
}

// The plan's window weights: filter a, then (gradient only) filter b, both in the common window.
template <class A>
std::vector<A> plan_window_weights(const StencilPlan& plan) {
  const int rx = plan.radius_x(), ry = plan.radius_y();
  std::vector<A> out = window_weights<A>(plan.a, rx, ry);
  if (plan.kind == StencilPlan::Kind::GradientMagnitude) {
    std::vector<A> b = window_weights<A>(plan.b, rx, ry);
    out.insert(out.end(), b.begin(), b.end());
  }
  return out;
}

// One axis of a separable filter, centred in 2*r+1 taps.
template <class A>
std::vector<A> axis_taps(const LinearFilter& f, bool x_axis, int r) {
  std::vector<A> out(std::size_t(2 * r + 1), A(0));
  const auto& src = axis_weights_of<A>(f, x_axis);
  const int own = x_axis ? f.rx : f.ry;
  for (int i = 0; i <= 2 * own; ++i) out[std::size_t(i + r - own)] = src[std::size_t(i)];
  return out;
}

}  // namespace ks::cuda
