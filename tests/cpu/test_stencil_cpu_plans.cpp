// Every stencil kernel of the registry, from its default parameters through make_stencil_plan to the CPU,
// against a reference written from the kernel's description alone (weights derived here, not taken from the
// plan).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/thread_pool.hpp"
#include "registry/registry.hpp"
#include "stencil/cpu/stencil_cpu.hpp"
#include "support/test_support.hpp"
#include "test_stencil_cpu_reference.hpp"

namespace ks {
namespace {

// Defaults: reflect101 border; the sizes and channel counts the kernels take.
Image run_default(const std::string& id, const Image& in, ThreadPool& pool) {
  const ParamSet p = KernelRegistry::builtin().get(id).default_params();
  return cpu::run_stencil(make_stencil_plan(id, p), in, pool);
}

std::vector<Image> inputs(ElemType type) {
  return {test::random_image(61, 37, 1, type, 21), test::random_image(29, 18, 4, type, 22)};
}

// Largest |a - b| over all elements.
double max_diff(const Image& a, const Image& b) {
  double worst = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x)
      for (int c = 0; c < a.channels(); ++c)
        worst = std::max(worst, std::abs(test::element(a, x, y, c) - test::element(b, x, y, c)));
  return worst;
}

std::vector<double> gaussian_window(double sigma, int r) {
  std::vector<double> axis;
  double s = 0;
  for (int i = -r; i <= r; ++i) s += axis.emplace_back(std::exp(-i * i / (2 * sigma * sigma)));
  std::vector<double> w;
  for (double wy : axis)
    for (double wx : axis) w.push_back(wy * wx / (s * s));
  return w;
}

Image from_values(const Image& like, const std::vector<double>& v) {
  return like.type() == ElemType::U8 ? test::u8_from_sums(like.shape(), v, 1.0)
                                     : test::f32_from_values(like.shape(), v);
}

TEST(StencilCpuPlans, BoxDefaultIsThe3x3Mean) {
  ThreadPool pool(2);
  for (ElemType type : {ElemType::U8, ElemType::F32})
    for (const Image& in : inputs(type)) {
      const auto sums = test::correlate(in, 1, 1, std::vector<double>(9, 1.0), Border::Reflect101, 0);
      const Image expected = type == ElemType::U8 ? test::u8_from_sums(in.shape(), sums, 9)
                                                  : test::f32_from_values(in.shape(), [&] {
                                                      std::vector<double> m;
                                                      for (double s : sums) m.push_back(s / 9);
                                                      return m;
                                                    }());
      EXPECT_TRUE(test::images_match(run_default("box", in, pool), expected, 1e-6));
    }
}

// sigma 2, radius ceil(3 sigma) = 6. F32 to float precision; U8 within 1 (fixed-point weights vs exact ones).
TEST(StencilCpuPlans, GaussianDefaultFollowsTheFormula) {
  ThreadPool pool(2);
  const auto w = gaussian_window(2.0, 6);
  for (ElemType type : {ElemType::U8, ElemType::F32})
    for (const Image& in : inputs(type)) {
      const Image expected = from_values(in, test::correlate(in, 6, 6, w, Border::Reflect101, 0));
      const Image out = run_default("gaussian", in, pool);
      if (type == ElemType::F32)
        EXPECT_TRUE(test::images_match(out, expected, 1e-5));
      else
        EXPECT_LE(max_diff(out, expected), 1.0);
    }
}

// Magnitude of [-1 0 1] x [1 2 1] and its transpose; U8 rounds sqrt(a^2 + b^2) of the exact integer sums.
TEST(StencilCpuPlans, SobelDefaultIsTheGradientMagnitude) {
  ThreadPool pool(2);
  const std::vector<double> dx{-1, 0, 1, -2, 0, 2, -1, 0, 1}, dy{-1, -2, -1, 0, 0, 0, 1, 2, 1};
  for (ElemType type : {ElemType::U8, ElemType::F32})
    for (const Image& in : inputs(type)) {
      const auto a = test::correlate(in, 1, 1, dx, Border::Reflect101, 0);
      const auto b = test::correlate(in, 1, 1, dy, Border::Reflect101, 0);
      std::vector<double> m;
      for (std::size_t i = 0; i < a.size(); ++i) m.push_back(std::sqrt(a[i] * a[i] + b[i] * b[i]));
      EXPECT_TRUE(test::images_match(run_default("sobel", in, pool), from_values(in, m), 1e-6));
    }
}

TEST(StencilCpuPlans, LaplacianDefaultIsFourNeighbour) {
  ThreadPool pool(2);
  const std::vector<double> w{0, 1, 0, 1, -4, 1, 0, 1, 0};
  for (ElemType type : {ElemType::U8, ElemType::F32})
    for (const Image& in : inputs(type))
      EXPECT_TRUE(test::images_match(run_default("laplacian", in, pool),
                                     from_values(in, test::correlate(in, 1, 1, w, Border::Reflect101, 0)),
                                     1e-6));
}

// amount 1, sigma 1, radius 3: v + (v - gaussian(v)).
TEST(StencilCpuPlans, SharpenDefaultIsUnsharpMask) {
  ThreadPool pool(2);
  const auto w = gaussian_window(1.0, 3);
  for (ElemType type : {ElemType::U8, ElemType::F32})
    for (const Image& in : inputs(type)) {
      const auto blur = test::correlate(in, 3, 3, w, Border::Reflect101, 0);
      std::vector<double> v;
      std::size_t i = 0;
      for (int y = 0; y < in.height(); ++y)
        for (int x = 0; x < in.width(); ++x)
          for (int c = 0; c < in.channels(); ++c, ++i) v.push_back(2 * test::element(in, x, y, c) - blur[i]);
      const Image out = run_default("sharpen", in, pool);
      if (type == ElemType::F32)
        EXPECT_TRUE(test::images_match(out, from_values(in, v), 1e-5));
      else
        EXPECT_LE(max_diff(out, from_values(in, v)), 1.0);
    }
}

TEST(StencilCpuPlans, MedianDefaultIs3x3) {
  ThreadPool pool(2);
  for (ElemType type : {ElemType::U8, ElemType::F32})
    for (const Image& in : inputs(type))
      EXPECT_TRUE(test::images_match(run_default("median", in, pool),
                                     test::median_by_sorting(in, 1, Border::Reflect101, 0), 0.0));
}

// The default matrix 0,-1,0; -1,5,-1; 0,-1,0 unnormalised: a sharpening kernel.
TEST(StencilCpuPlans, ConvolveDefaultMatrix) {
  ThreadPool pool(2);
  const std::vector<double> w{0, -1, 0, -1, 5, -1, 0, -1, 0};
  for (ElemType type : {ElemType::U8, ElemType::F32})
    for (const Image& in : inputs(type))
      EXPECT_TRUE(test::images_match(run_default("convolve", in, pool),
                                     from_values(in, test::correlate(in, 1, 1, w, Border::Reflect101, 0)),
                                     1e-6));
}

// A user matrix with fractional weights (fixed point on U8) and normalisation.
TEST(StencilCpuPlans, ConvolveNormalisedUserMatrix) {
  ThreadPool pool(2);
  ParamSet p = KernelRegistry::builtin().get("convolve").default_params();
  p.set("matrix", "1,2,1,0.5,0; 0,3,1,1,1; 2,0.25,1,1,1");
  p.set("normalize", "true");
  const StencilPlan plan = make_stencil_plan("convolve", p);
  std::vector<double> w{1, 2, 1, 0.5, 0, 0, 3, 1, 1, 1, 2, 0.25, 1, 1, 1};
  double s = 0;
  for (double v : w) s += v;
  for (double& v : w) v /= s;
  for (ElemType type : {ElemType::U8, ElemType::F32})
    for (const Image& in : inputs(type)) {
      const Image expected = from_values(in, test::correlate(in, 2, 1, w, Border::Reflect101, 0));
      const Image out = cpu::run_stencil(plan, in, pool);
      if (type == ElemType::F32)
        EXPECT_TRUE(test::images_match(out, expected, 1e-5));
      else
        EXPECT_LE(max_diff(out, expected), 1.0);
    }
}

}  // namespace
}  // namespace ks
