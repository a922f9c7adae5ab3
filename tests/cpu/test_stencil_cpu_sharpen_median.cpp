// Unsharp mask and median on the CPU.
#include <gtest/gtest.h>

#include <algorithm>
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

StencilPlan unsharp_box(float amount) {
  StencilPlan plan;
  plan.kind = StencilPlan::Kind::UnsharpMask;
  plan.a = test::box_filter(1);
  plan.amount = amount;
  return plan;
}

StencilPlan median_plan(int r, Border border = Border::Reflect101, float border_value = 0.f) {
  StencilPlan plan;
  plan.kind = StencilPlan::Kind::Median;
  plan.median_radius = r;
  plan.border = border;
  plan.border_value = border_value;
  return plan;
}

TEST(StencilCpuSharpen, AmountZeroIsTheIdentity) {
  ThreadPool pool(2);
  for (ElemType type : {ElemType::U8, ElemType::F32}) {
    for (int channels : {1, 4}) {
      const Image in = test::random_image(45, 17, channels, type, 5);
      EXPECT_TRUE(test::images_match(cpu::run_stencil(unsharp_box(0.f), in, pool), in, 0.0));
      ParamSet p = KernelRegistry::builtin().get("sharpen").default_params();
      p.set("amount", "0");
      EXPECT_TRUE(test::images_match(cpu::run_stencil(make_stencil_plan("sharpen", p), in, pool), in, 0.0));
    }
  }
}

// A 3x3 image of 50s with 140 in the middle, blurred by a 3x3 box with reflect101 (the centre pixel is read 4
// times by a corner's window, twice by an edge's, once by its own):
//   centre: blur (8*50 + 140)/9 = 60,      v = 140 + a * 80
//   corner: blur (5*50 + 4*140)/9 = 90,    v = 50 - a * 40
//   edge:   blur (7*50 + 2*140)/9 = 70,    v = 50 - a * 20
TEST(StencilCpuSharpen, HandComputedUnsharpMask) {
  ThreadPool pool(1);
  for (ElemType type : {ElemType::U8, ElemType::F32}) {
    Image in(3, 3, 1, type);
    for (int i = 0; i < 9; ++i) {
      const double v = i == 4 ? 140 : 50;
      if (type == ElemType::U8)
        in.elements<std::uint8_t>()[std::size_t(i)] = std::uint8_t(v);
      else
        in.elements<float>()[std::size_t(i)] = float(v);
    }
    const struct {
      float amount;
      double centre, corner, edge;
    } cases[] = {{1.f, 220, 10, 30}, {0.5f, 180, 30, 40}, {2.f, 300, -30, 10}};
    for (const auto& c : cases) {
      SCOPED_TRACE(std::string(to_string(type)) + " amount " + std::to_string(c.amount));
      const Image out = cpu::run_stencil(unsharp_box(c.amount), in, pool);
      const double lo = type == ElemType::U8 ? 0 : -1e9,
                   hi = type == ElemType::U8 ? 255 : 1e9;  // U8 saturates
      auto clamp = [&](double v) { return std::clamp(v, lo, hi); };
      // U8 is exact (integer sums); F32 carries the rounding of the float weights 1/3 * 1/3.
      const double tol = type == ElemType::U8 ? 0.0 : 1e-4;
      EXPECT_NEAR(test::element(out, 1, 1, 0), clamp(c.centre), tol);
      EXPECT_NEAR(test::element(out, 0, 0, 0), clamp(c.corner), tol);
      EXPECT_NEAR(test::element(out, 2, 2, 0), clamp(c.corner), tol);
      EXPECT_NEAR(test::element(out, 1, 0, 0), clamp(c.edge), tol);
      EXPECT_NEAR(test::element(out, 0, 1, 0), clamp(c.edge), tol);
    }
  }
}

// Salt (255) and pepper (0) pixels, each alone in its 3x3 neighbourhood, vanish under a 3x3 median.
TEST(StencilCpuMedian, RemovesIsolatedSaltAndPepper) {
  ThreadPool pool(2);
  for (ElemType type : {ElemType::U8, ElemType::F32}) {
    const double base = type == ElemType::U8 ? 100 : 0.4, salt = type == ElemType::U8 ? 255 : 1.0;
    const int w = 40, h = 30;
    Image clean(w, h, 1, type), noisy(w, h, 1, type);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const std::size_t i = std::size_t(y) * w + x;
        // Noise on a grid 3 pixels apart (edges included): each 3x3 window holds at most one noisy pixel.
        const bool noise = x % 3 == 0 && y % 3 == 0;
        const double v = noise ? ((x / 3) % 2 ? salt : 0.0) : base;
        if (type == ElemType::U8) {
          clean.elements<std::uint8_t>()[i] = std::uint8_t(base);
          noisy.elements<std::uint8_t>()[i] = std::uint8_t(v);
        } else {
          clean.elements<float>()[i] = float(base);
          noisy.elements<float>()[i] = float(v);
        }
      }
    EXPECT_TRUE(test::images_match(cpu::run_stencil(median_plan(1), noisy, pool), clean, 0.0))
        << to_string(type);
  }
}

TEST(StencilCpuMedian, MatchesSortingOnRandomData) {
  ThreadPool pool(2);
  std::uint32_t seed = 100;
  const int sizes[][2] = {{1, 1}, {3, 5}, {53, 29}, {200, 3}};  // 200 * 4 channels: several blocks per row
  for (const auto& size : sizes)
    for (ElemType type : {ElemType::U8, ElemType::F32})
      for (int channels : {1, 4})
        for (int r : {1, 2, 3})
          for (Border border : test::all_borders()) {
            SCOPED_TRACE(std::to_string(size[0]) + "x" + std::to_string(size[1]) + " " + to_string(type) +
                         " ch " + std::to_string(channels) + " r=" + std::to_string(r) + " " +
                         to_string(border));
            const Image in = test::random_image(size[0], size[1], channels, type, seed++);
            const float bv = type == ElemType::U8 ? 128.f : 0.5f;
            EXPECT_TRUE(test::images_match(cpu::run_stencil(median_plan(r, border, bv), in, pool),
                                           test::median_by_sorting(in, r, border, bv), 0.0));
          }
}

}  // namespace
}  // namespace ks
