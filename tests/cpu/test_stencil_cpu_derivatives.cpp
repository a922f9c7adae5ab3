// Derivative filters on the CPU: sobel on ramps and a step corner, the laplacian of a quadratic.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/thread_pool.hpp"
#include "registry/registry.hpp"
#include "stencil/cpu/stencil_cpu.hpp"
#include "support/test_support.hpp"
#include "test_stencil_cpu_reference.hpp"

namespace ks {
namespace {

Image f32_image(int w, int h, const std::function<double(int, int)>& f) {
  Image img(w, h, 1, ElemType::F32);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) img.elements<float>()[std::size_t(y) * w + x] = float(f(x, y));
  return img;
}

float at(const Image& img, int x, int y) {
  return img.elements<float>()[std::size_t(y) * img.width() + x];
}

// Sobel as the registry describes it: dx = [-1 0 1] (columns) x [1 2 1] (rows), dy its transpose.
StencilPlan sobel_by_hand(bool dx, Border border = Border::Reflect101) {
  LinearFilter f = dx ? test::separable_int_filter({-1, 0, 1}, 1, {1, 2, 1}, 1)
                      : test::separable_int_filter({1, 2, 1}, 1, {-1, 0, 1}, 1);
  return test::linear_plan(f, border);
}

StencilPlan registry_plan(const std::string& id, const std::vector<std::string>& assignments) {
  ParamSet p = KernelRegistry::builtin().get(id).default_params();
  for (const auto& a : assignments) p.set_assignment(a);
  return make_stencil_plan(id, p);
}

// d/dx of f = x: (x+1) - (x-1) = 2 in each of the three rows, weighted 1 + 2 + 1: 8.
TEST(StencilCpuDerivatives, SobelDxOfRampIsEightInside) {
  ThreadPool pool(2);
  const int w = 16, h = 9;
  const Image ramp = f32_image(w, h, [](int x, int) { return x; });
  for (const StencilPlan& plan : {sobel_by_hand(true), registry_plan("sobel", {"output=dx"})}) {
    const Image out = cpu::run_stencil(plan, ramp, pool);
    for (int y = 0; y < h; ++y)
      for (int x = 1; x < w - 1; ++x) EXPECT_FLOAT_EQ(at(out, x, y), 8.f) << x << "," << y;
    // reflect101 mirrors x = 1 to x = -1: no slope at the edges.
    for (int y = 0; y < h; ++y) {
      EXPECT_FLOAT_EQ(at(out, 0, y), 0.f);
      EXPECT_FLOAT_EQ(at(out, w - 1, y), 0.f);
    }
  }
  // replicate reads 0 at x = -1: (1 - 0) * 4; wrap reads w - 1 there: (1 - (w - 1)) * 4.
  const Image rep = cpu::run_stencil(sobel_by_hand(true, Border::Replicate), ramp, pool);
  const Image wrap = cpu::run_stencil(sobel_by_hand(true, Border::Wrap), ramp, pool);
  EXPECT_FLOAT_EQ(at(rep, 0, 4), 4.f);
  EXPECT_FLOAT_EQ(at(wrap, 0, 4), float((1 - (w - 1)) * 4));
}

TEST(StencilCpuDerivatives, SobelDyOfRampIsEightInside) {
  ThreadPool pool(2);
  const int w = 7, h = 12;
  const Image ramp = f32_image(w, h, [](int, int y) { return 3 * y; });
  for (const StencilPlan& plan : {sobel_by_hand(false), registry_plan("sobel", {"output=dy"})}) {
    const Image out = cpu::run_stencil(plan, ramp, pool);
    for (int y = 1; y < h - 1; ++y)
      for (int x = 0; x < w; ++x) EXPECT_FLOAT_EQ(at(out, x, y), 24.f) << x << "," << y;
  }
}

// A 6x6 U8 image, 10 where x >= 3 and y >= 3, else 0; reflect101. Worked out by hand, e.g. at (3,3) the
// window is rows/cols 2..4: dx = 1*(0-0) + 2*(10-0) + 1*(10-0) = 30, dy = 30 likewise, sqrt(1800) = 42.43 ->
// 42; at (2,2): dx = dy = 10, sqrt(200) = 14.14 -> 14; at (3,2): dx = 10, dy = 0 + 2*10 + 10 = 30, sqrt(1000)
// -> 32.
TEST(StencilCpuDerivatives, SobelMagnitudeOfStepCornerU8) {
  const std::vector<std::vector<int>> expected{
      {0, 0, 0, 0, 0, 0},     {0, 0, 0, 0, 0, 0},   {0, 0, 14, 32, 40, 40},
      {0, 0, 32, 42, 40, 40}, {0, 0, 40, 40, 0, 0}, {0, 0, 40, 40, 0, 0},
  };
  Image in(6, 6, 1, ElemType::U8);
  for (int y = 3; y < 6; ++y)
    for (int x = 3; x < 6; ++x) in.elements<std::uint8_t>()[std::size_t(y) * 6 + x] = 10;

  StencilPlan by_hand;
  by_hand.kind = StencilPlan::Kind::GradientMagnitude;
  by_hand.a = sobel_by_hand(true).a;
  by_hand.b = sobel_by_hand(false).a;
  ThreadPool pool(2);
  for (const StencilPlan& plan : {by_hand, registry_plan("sobel", {"output=magnitude"})}) {
    const Image out = cpu::run_stencil(plan, in, pool);
    for (int y = 0; y < 6; ++y)
      for (int x = 0; x < 6; ++x)
        EXPECT_EQ(int(out.elements<std::uint8_t>()[std::size_t(y) * 6 + x]),
                  expected[std::size_t(y)][std::size_t(x)])
            << "at " << x << "," << y;
  }
}

// F32 magnitude is sqrt(dx^2 + dy^2): on f = 3x + 4y the interior has dx = 24, dy = 32, magnitude 40.
TEST(StencilCpuDerivatives, SobelMagnitudeF32OfPlane) {
  StencilPlan plan;
  plan.kind = StencilPlan::Kind::GradientMagnitude;
  plan.a = sobel_by_hand(true).a;
  plan.b = sobel_by_hand(false).a;
  ThreadPool pool(2);
  const Image out = cpu::run_stencil(plan, f32_image(9, 8, [](int x, int y) { return 3 * x + 4 * y; }), pool);
  for (int y = 1; y < 7; ++y)
    for (int x = 1; x < 8; ++x) EXPECT_FLOAT_EQ(at(out, x, y), 40.f) << x << "," << y;
}

// x^2 + y^2: each axis' second difference (x+1)^2 + (x-1)^2 - 2x^2 = 2, so the 4-neighbour laplacian is 4;
// the 8-neighbour one sums dx^2 + dy^2 over the 3x3 window: 6 + 6 = 12.
TEST(StencilCpuDerivatives, LaplacianOfQuadratic) {
  ThreadPool pool(2);
  const int w = 20, h = 15;
  const Image q = f32_image(w, h, [](int x, int y) { return x * x + y * y; });
  const StencilPlan four_by_hand = test::linear_plan(test::int_filter(1, 1, {0, 1, 0, 1, -4, 1, 0, 1, 0}, 1));
  const StencilPlan eight_by_hand =
      test::linear_plan(test::int_filter(1, 1, {1, 1, 1, 1, -8, 1, 1, 1, 1}, 1));
  const std::pair<StencilPlan, float> cases[] = {{four_by_hand, 4.f},
                                                 {registry_plan("laplacian", {}), 4.f},
                                                 {eight_by_hand, 12.f},
                                                 {registry_plan("laplacian", {"neighbours=8"}), 12.f}};
  for (const auto& [plan, value] : cases) {
    const Image out = cpu::run_stencil(plan, q, pool);
    for (int y = 1; y < h - 1; ++y)
      for (int x = 1; x < w - 1; ++x) EXPECT_FLOAT_EQ(at(out, x, y), value) << x << "," << y;
  }
}

}  // namespace
}  // namespace ks
