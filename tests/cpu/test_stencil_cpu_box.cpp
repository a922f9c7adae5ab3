// Box blur on the CPU: the OpenCV-equivalent case (cv::blur, BORDER_REFLECT_101) and F32 means.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/thread_pool.hpp"
#include "stencil/cpu/stencil_cpu.hpp"
#include "support/test_support.hpp"
#include "test_stencil_cpu_reference.hpp"

namespace ks {
namespace {

// What cv::blur(img, dst, {3, 3}) computes, written out: the 3x3 mean over the image padded with
// BORDER_REFLECT_101 (gfedcb|abcdefgh|gfedcba), built here by hand, in double, rounded to nearest. OpenCV
// rounds its fixed-point mean within 1 of this; kernelscope's contract is this value exactly (halves up).
Image blur3x3_reflect101(const Image& in) {
  const int w = in.width(), h = in.height();
  auto reflect101 = [](int p, int n) {  // one step out is all a 3x3 window needs (n >= 2)
    if (p < 0) return -p;
    if (p >= n) return 2 * n - 2 - p;
    return p;
  };
  Image out(in.shape());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double sum = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          sum += test::element(in, reflect101(x + dx, w), reflect101(y + dy, h), 0);
      out.elements<std::uint8_t>()[std::size_t(y) * w + x] = std::uint8_t(std::floor(sum / 9.0 + 0.5));
    }
  return out;
}

TEST(StencilCpuBox, Radius1U8MatchesOpenCvBlurReflect101) {
  ThreadPool pool(2);
  const int sizes[][2] = {{1023, 7}, {64, 64}};
  for (const auto& size : sizes) {
    SCOPED_TRACE(std::to_string(size[0]) + "x" + std::to_string(size[1]));
    const Image in = test::random_image(size[0], size[1], 1, ElemType::U8, 7u + std::uint32_t(size[0]));
    const Image expected = blur3x3_reflect101(in);
    const Image out = cpu::run_stencil(test::linear_plan(test::box_filter(1)), in, pool);
    ASSERT_EQ(out.shape(), in.shape());
    // OpenCV's own tolerance first (what the issue asks), then the contract: exactly the rounded mean.
    int worst = 0;
    for (std::size_t i = 0; i < expected.byte_size(); ++i)
      worst = std::max(
          worst, std::abs(int(out.elements<std::uint8_t>()[i]) - int(expected.elements<std::uint8_t>()[i])));
    EXPECT_LE(worst, 1);
    EXPECT_TRUE(test::images_match(out, expected));
  }
}

// Nearest, halves up: a 3x3 box on 10s with one 14 (sum 94 -> 10.44) or 15 (sum 95 -> 10.56) at the centre,
// and a [1 0 1] / 2 filter that lands exactly on a half (10 and 11 -> 10.5 -> 11).
TEST(StencilCpuBox, U8RoundsToNearestHalvesUp) {
  ThreadPool pool(1);
  Image in(3, 3, 1, ElemType::U8);
  auto px = in.elements<std::uint8_t>();
  for (auto& v : px) v = 10;
  px[4] = 14;
  EXPECT_EQ(cpu::run_stencil(test::linear_plan(test::box_filter(1)), in, pool).elements<std::uint8_t>()[4],
            10);
  px[4] = 15;
  EXPECT_EQ(cpu::run_stencil(test::linear_plan(test::box_filter(1)), in, pool).elements<std::uint8_t>()[4],
            11);

  px[3] = 10;
  px[5] = 11;
  const StencilPlan half = test::linear_plan(test::int_filter(1, 0, {1, 0, 1}, 2));
  EXPECT_EQ(cpu::run_stencil(half, in, pool).elements<std::uint8_t>()[4], 11);
}

TEST(StencilCpuBox, F32IsTheWindowMean) {
  ThreadPool pool(2);
  const Image in = test::random_image(97, 41, 1, ElemType::F32, 3);
  for (int r : {1, 2, 5}) {
    SCOPED_TRACE("r=" + std::to_string(r));
    const int n = 2 * r + 1;
    const std::vector<double> w(std::size_t(n * n), 1.0 / (n * n));
    const auto expected = test::correlate(in, r, r, w, Border::Reflect101, 0);
    const Image out = cpu::run_stencil(test::linear_plan(test::box_filter(r)), in, pool);
    EXPECT_TRUE(test::images_match(out, test::f32_from_values(in.shape(), expected), 1e-6));
  }
}

// The largest box the registry offers (r = 50) on U8 still gives exact means: its sums reach 255 * 101^2.
TEST(StencilCpuBox, LargeRadiusU8IsExact) {
  ThreadPool pool(2);
  const Image in = test::random_image(64, 48, 1, ElemType::U8, 11);
  const LinearFilter f = test::box_filter(50);
  const auto sums = test::correlate(in, 50, 50, test::weights_of(f), Border::Reflect, 0);
  const Image out = cpu::run_stencil(test::linear_plan(f, Border::Reflect), in, pool);
  EXPECT_TRUE(test::images_match(out, test::u8_from_sums(in.shape(), sums, f.divisor)));
}

}  // namespace
}  // namespace ks
