// Gaussian blur on the CPU: weights that sum to one, constant images kept, an impulse giving the weights
// back.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/thread_pool.hpp"
#include "registry/registry.hpp"
#include "stencil/cpu/stencil_cpu.hpp"
#include "support/test_support.hpp"
#include "test_stencil_cpu_reference.hpp"

namespace ks {
namespace {

StencilPlan gaussian_plan(double sigma, const std::string& border = "reflect101", double border_value = 0) {
  ParamSet p = KernelRegistry::builtin().get("gaussian").default_params();
  p.set("sigma", std::to_string(sigma));
  p.set("border", border);
  p.set("border_value", std::to_string(border_value));
  return make_stencil_plan("gaussian", p);
}

Image constant_image(int w, int h, int channels, ElemType type, double value) {
  Image img(w, h, channels, type);
  if (type == ElemType::U8) {
    for (auto& v : img.elements<std::uint8_t>()) v = std::uint8_t(value);
  } else {
    for (auto& v : img.elements<float>()) v = float(value);
  }
  return img;
}

TEST(StencilCpuGaussian, WeightsSumToOne) {
  for (double sigma : {0.5, 2.0, 5.0}) {
    SCOPED_TRACE("sigma " + std::to_string(sigma));
    const StencilPlan plan = gaussian_plan(sigma);
    double sum = 0;
    for (float w : plan.a.w) sum += w;
    EXPECT_NEAR(sum, 1.0, 1e-6);
    std::int64_t isum = 0;
    for (std::int32_t w : plan.a.iw) isum += w;
    EXPECT_EQ(isum, plan.a.divisor);  // so a constant U8 image is reproduced exactly
  }
}

TEST(StencilCpuGaussian, ConstantImageStaysConstant) {
  ThreadPool pool(2);
  for (const char* border : {"reflect101", "reflect", "replicate", "wrap", "constant"}) {
    for (int channels : {1, 4}) {
      SCOPED_TRACE(std::string(border) + " channels " + std::to_string(channels));
      for (double v : {0.0, 77.0, 255.0}) {
        const Image in = constant_image(37, 23, channels, ElemType::U8, v);
        // With the constant border the outside must hold the same value for the image to stay constant.
        EXPECT_TRUE(test::images_match(cpu::run_stencil(gaussian_plan(2.0, border, v), in, pool), in));
      }
      const Image in = constant_image(37, 23, channels, ElemType::F32, 0.3);
      EXPECT_TRUE(test::images_match(cpu::run_stencil(gaussian_plan(2.0, border, 0.3), in, pool), in, 1e-6));
    }
  }
}

// Correlating an impulse reads the window back mirrored: out(c - d) = w(d). Gaussians are symmetric, so the
// output around the impulse is the weights, and they must be exp(-(dx^2 + dy^2) / 2 sigma^2), normalised.
TEST(StencilCpuGaussian, ImpulseGivesTheWeightsBack) {
  ThreadPool pool(2);
  const double sigma = 2.0;
  const StencilPlan plan = gaussian_plan(sigma);
  const int r = plan.a.rx;
  ASSERT_EQ(r, 6);  // ceil(3 sigma)
  const int n = 31, c = 15;
  Image in(n, n, 1, ElemType::F32);
  in.elements<float>()[std::size_t(c) * n + c] = 1.f;
  const Image out = cpu::run_stencil(plan, in, pool);

  double axis = 0;
  for (int i = -r; i <= r; ++i) axis += std::exp(-i * i / (2 * sigma * sigma));
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const int dx = x - c, dy = y - c;
      const double expected = std::abs(dx) <= r && std::abs(dy) <= r
                                  ? std::exp(-(dx * dx + dy * dy) / (2 * sigma * sigma)) / (axis * axis)
                                  : 0.0;
      EXPECT_NEAR(out.elements<float>()[std::size_t(y) * n + x], expected, 1e-6) << "at " << x << "," << y;
    }
}

}  // namespace
}  // namespace ks
