// Border modes of the CPU stencils: hand-computed tiny cases, then every mode on tiny images (radius larger
// than the image included) against the explicitly padded reference.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/thread_pool.hpp"
#include "stencil/cpu/stencil_cpu.hpp"
#include "support/test_support.hpp"
#include "test_stencil_cpu_reference.hpp"

namespace ks {
namespace {

using test::all_borders;

// The reference's own padding, checked against the pictures in border.hpp (OpenCV's documentation).
TEST(StencilCpuReference, ExtendedIndicesMatchTheBorderPictures) {
  using V = std::vector<int>;
  EXPECT_EQ(test::extended_indices(4, 3, Border::Replicate),
            (V{0, 0, 0, 0, 1, 2, 3, 3, 3, 3}));  // aaa|abcd|ddd
  EXPECT_EQ(test::extended_indices(4, 3, Border::Reflect),
            (V{2, 1, 0, 0, 1, 2, 3, 3, 2, 1}));  // cba|abcd|dcb
  EXPECT_EQ(test::extended_indices(4, 3, Border::Reflect101),
            (V{3, 2, 1, 0, 1, 2, 3, 2, 1, 0}));                                              // dcb|abcd|cba
  EXPECT_EQ(test::extended_indices(4, 3, Border::Wrap), (V{1, 2, 3, 0, 1, 2, 3, 0, 1, 2}));  // bcd|abcd|abc
  EXPECT_EQ(test::extended_indices(4, 3, Border::Constant), (V{-1, -1, -1, 0, 1, 2, 3, -1, -1, -1}));
  // Far outside a tiny image: "ab" reflected is ..abba|ab|baab..
  EXPECT_EQ(test::extended_indices(2, 5, Border::Reflect), (V{0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1}));
  EXPECT_EQ(test::extended_indices(1, 2, Border::Reflect101), (V{0, 0, 0, 0, 0}));
}

Image u8_row(std::vector<std::uint8_t> values) {
  Image img(int(values.size()), 1, 1, ElemType::U8);
  for (std::size_t i = 0; i < values.size(); ++i) img.elements<std::uint8_t>()[i] = values[i];
  return img;
}

struct HandCase {
  Border border;
  float border_value;
  int radius;
  std::uint8_t left, right;  // expected box mean of the 2x1 image [10, 20], rounded half up
};

// Worked out on paper; e.g. reflect101, r=3: the row reads 20 10 20 [10 20] 10 20 (and 10 20 10 ... for x=1),
// every row of the window is row 0, so x=0 gives 7 * 110 / 49 = 15.71 -> 16 and x=1 gives 7 * 100 / 49 -> 14.
TEST(StencilCpuBorder, HandComputedBoxOn2x1) {
  const std::vector<HandCase> cases{
      {Border::Replicate, 0, 1, 13, 17},   // 10 10 20 | 10 20 20: 120/9, 150/9
      {Border::Reflect, 0, 1, 13, 17},     // same as replicate one pixel out
      {Border::Reflect101, 0, 1, 17, 13},  // 20 10 20 | 10 20 10
      {Border::Wrap, 0, 1, 17, 13},        // 20 10 20 | 10 20 10
      {Border::Constant, 0, 1, 3, 3},      // only 10 + 20 inside the window: 30/9
      {Border::Constant, 90, 1, 73, 73},   // 6 * 90 + 90 + 10 + 20 = 660 -> 660/9 = 73.3
      {Border::Replicate, 0, 3, 14, 16},   // 10 10 10 10 20 20 20: 700/49; 10 10 10 20 20 20 20: 770/49
      {Border::Reflect, 0, 3, 16, 14},     // 20 20 10 [10 20] 20 10 ...
      {Border::Reflect101, 0, 3, 16, 14}, {Border::Wrap, 0, 3, 16, 14},
      {Border::Constant, 0, 3, 1, 1},  // 30/49 = 0.61
  };
  ThreadPool pool(2);
  const Image in = u8_row({10, 20});
  for (const HandCase& c : cases) {
    SCOPED_TRACE(std::string(to_string(c.border)) + " r=" + std::to_string(c.radius));
    for (bool separable : {true, false}) {
      StencilPlan plan = test::linear_plan(test::box_filter(c.radius), c.border, c.border_value);
      if (!separable) plan.a.separable.reset();
      const Image out = cpu::run_stencil(plan, in, pool);
      EXPECT_EQ(out.elements<std::uint8_t>()[0], c.left);
      EXPECT_EQ(out.elements<std::uint8_t>()[1], c.right);
    }
  }
}

// Filters whose rows and columns differ, so that a swapped axis or a mirrored window shows.
std::vector<LinearFilter> test_filters(int r) {
  std::vector<LinearFilter> filters;
  filters.push_back(test::box_filter(r));
  std::vector<std::int32_t> iwx, iwy;
  for (int i = 0; i < 2 * r + 1; ++i) iwx.push_back(i + 1);            // 1 2 3 ...
  for (int i = 0; i < 2 * r + 3; ++i) iwy.push_back((i * 7) % 5 + 1);  // taller than wide, uneven
  std::int32_t sx = 0, sy = 0;
  for (auto v : iwx) sx += v;
  for (auto v : iwy) sy += v;
  filters.push_back(test::separable_int_filter(iwx, sx, iwy, sy));
  // Not separable: distinct weights 1..n over a (2r+1) x (2r+3) window, some negative.
  std::vector<std::int32_t> iw;
  std::int32_t sum = 0;
  for (int i = 0; i < (2 * r + 1) * (2 * r + 3); ++i) {
    iw.push_back(i % 4 == 3 ? -(i + 1) : i + 1);
    sum += iw.back();
  }
  filters.push_back(test::int_filter(r + 1, r, iw, sum > 0 ? sum : 1));
  return filters;
}

TEST(StencilCpuBorder, TinyImagesEveryModeMatchesPaddedReference) {
  ThreadPool pool(2);
  const int sizes[][2] = {{1, 1}, {2, 1}, {3, 5}, {5, 3}};
  std::uint32_t seed = 1;
  for (const auto& size : sizes) {
    for (int channels : {1, 4}) {
      for (ElemType type : {ElemType::U8, ElemType::F32}) {
        const Image in = test::random_image(size[0], size[1], channels, type, seed++);
        const float border_value = type == ElemType::U8 ? 37.f : 0.37f;
        for (int r : {1, 3, 4}) {
          for (const LinearFilter& f : test_filters(r)) {
            for (Border border : all_borders()) {
              SCOPED_TRACE(std::to_string(size[0]) + "x" + std::to_string(size[1]) + "x" +
                           std::to_string(channels) + " " + to_string(type) + " r=" + std::to_string(r) +
                           " window " + std::to_string(f.width()) + "x" + std::to_string(f.height()) + " " +
                           to_string(border));
              const Image out = cpu::run_stencil(test::linear_plan(f, border, border_value), in, pool);
              if (type == ElemType::U8) {
                const auto sums = test::correlate(in, f.rx, f.ry, test::weights_of(f), border, border_value);
                EXPECT_TRUE(test::images_match(out, test::u8_from_sums(in.shape(), sums, f.divisor)));
              } else {
                const std::vector<double> w(f.w.begin(), f.w.end());
                const auto sums = test::correlate(in, f.rx, f.ry, w, border, border_value);
                EXPECT_TRUE(test::images_match(out, test::f32_from_values(in.shape(), sums), 1e-6));
              }
            }
          }
        }
      }
    }
  }
}

// A U8 constant border takes the value rounded half up and saturated: the sums stay integers.
TEST(StencilCpuBorder, U8ConstantBorderValueIsRoundedAndSaturated) {
  ThreadPool pool(1);
  const Image in = u8_row({10, 20});
  auto box1 = [&](float v) {
    const Image out = cpu::run_stencil(test::linear_plan(test::box_filter(1), Border::Constant, v), in, pool);
    return std::vector<int>{out.elements<std::uint8_t>()[0], out.elements<std::uint8_t>()[1]};
  };
  EXPECT_EQ(box1(89.5f), box1(90.f));  // 89.5 -> 90: (7 * 90 + 30) / 9 = 73.3
  EXPECT_EQ(box1(90.f), (std::vector<int>{73, 73}));
  EXPECT_EQ(box1(300.f), box1(255.f));  // (7 * 255 + 30) / 9 = 201.7 -> 202
  EXPECT_EQ(box1(255.f), (std::vector<int>{202, 202}));
  EXPECT_EQ(box1(-4.f), box1(0.f));
}

}  // namespace
}  // namespace ks
