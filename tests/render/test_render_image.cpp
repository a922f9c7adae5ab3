// The image layer drawn through EGL and read back: values reach the screen unchanged at 1:1, colormaps end where
// their published colours are, the split shows input left and output right, magnification keeps pixels square,
// tiles draw like one texture, and drawing never transfers pixels again.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "session/display_frame.hpp"
#include "render/value_range.hpp"
#include "render/view_math.hpp"
#include "render_test_support.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

using test::rgb_near;

ui::DisplayFrame input_only(const Image& input, std::uint64_t generation = 1) {
  ui::DisplayFrame f;
  f.input = &input;
  f.input_generation = generation;
  return f;
}

ui::DisplayFrame with_output(const Image& input, const Image& output, std::uint64_t generation = 1) {
  ui::DisplayFrame f = input_only(input);
  f.output = &output;
  f.output_generation = generation;
  return f;
}

Image filled(int w, int h, int channels, ElemType type, float value) {
  Image img(w, h, channels, type);
  if (type == ElemType::F32)
    for (float& v : img.elements<float>()) v = value;
  else
    for (std::uint8_t& v : img.elements<std::uint8_t>()) v = std::uint8_t(value);
  return img;
}

TEST(RenderImage, GrayU8ReachesTheScreenUnchangedAtOneToOne) {
  const Image input = test::random_image(37, 23, 1, ElemType::U8, 11);  // odd sizes: rows not 4-byte aligned
  auto r = test::make_renderer(37, 23);
  r.renderer().update(input_only(input));
  const Image frame = r.render(test::one_to_one_view(37, 23), {}, 1);
  ASSERT_EQ(frame.width(), 37);
  for (int y = 0; y < 23; ++y)
    for (int x = 0; x < 37; ++x) {
      const int v = input.row<std::uint8_t>(y)[x];
      ASSERT_TRUE(rgb_near(frame, x, y, {v, v, v}));
    }
}

TEST(RenderImage, RgbaU8ShowsItsColoursAndAlphaOverTheCheckerboard) {
  Image input = test::random_image(29, 17, 4, ElemType::U8, 12);
  for (int y = 0; y < 17; ++y)
    for (int x = 0; x < 29; ++x) input.row<std::uint8_t>(y)[4 * x + 3] = 255;
  input.row<std::uint8_t>(5)[4 * 7 + 3] = 0;  // one transparent pixel: the checkerboard shows through
  auto r = test::make_renderer(29, 17);
  r.renderer().update(input_only(input));
  const Image frame = r.render(test::one_to_one_view(29, 17), {}, 1);
  for (int y = 0; y < 17; ++y)
    for (int x = 0; x < 29; ++x) {
      if (x == 7 && y == 5) continue;
      const std::uint8_t* p = input.row<std::uint8_t>(y) + 4 * x;
      ASSERT_TRUE(rgb_near(frame, x, y, {p[0], p[1], p[2]}));
    }
  const test::Rgb under = test::rgb_at(frame, 7, 5);
  EXPECT_TRUE(under[0] == 92 || under[0] == 117) << under[0];  // the checkerboard's 0.36 / 0.46 grays
}

TEST(RenderImage, F32OutputIsShownOverTheViewsRange) {
  const Image input = filled(40, 10, 1, ElemType::F32, 0.5f);
  Image output(40, 10, 1, ElemType::F32);
  for (int x = 0; x < 40; ++x)
    for (int y = 0; y < 10; ++y) output.row<float>(y)[x] = -2.0f + 5.0f * float(x) / 39.0f;  // -2 .. 3
  auto r = test::make_renderer(40, 10);
  r.renderer().update(with_output(input, output));
  ui::ViewState view = test::one_to_one_view(40, 10);
  view.range_min = -2.0f;
  view.range_max = 3.0f;
  const Image frame = r.render(view, {}, 1);
  for (int x = 0; x < 40; ++x) {
    const int g = test::gray_of(output.row<float>(0)[x], -2.0, 3.0);
    ASSERT_TRUE(rgb_near(frame, x, 4, {g, g, g}, 1));
  }
}

// Published ends of each map (matplotlib's viridis and magma; Moreland's cool-warm for the diverging one).
struct MapEnds {
  ui::Colormap map;
  test::Rgb low, high;
};

TEST(RenderImage, ColormapEndsAreThePublishedColours) {
  const MapEnds maps[] = {{ui::Colormap::Gray, {0, 0, 0}, {255, 255, 255}},
                          {ui::Colormap::Viridis, {0x44, 0x01, 0x54}, {0xFD, 0xE7, 0x25}},
                          {ui::Colormap::Magma, {0x00, 0x00, 0x04}, {0xFC, 0xFD, 0xBF}},
                          {ui::Colormap::Diverging, {59, 76, 192}, {180, 4, 38}}};
  // Left half at the range's low end, right half at its high end; one pixel beyond each end saturates.
  Image output(8, 2, 1, ElemType::F32);
  const float values[8] = {-7.0f, -1.5f, -1.5f, -1.5f, 2.5f, 2.5f, 2.5f, 9.0f};
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 8; ++x) output.row<float>(y)[x] = values[x];
  const Image input = filled(8, 2, 1, ElemType::F32, 0.0f);
  auto r = test::make_renderer(8, 2);
  r.renderer().update(with_output(input, output));
  for (const MapEnds& m : maps) {
    SCOPED_TRACE(static_cast<int>(m.map));
    ui::ViewState view = test::one_to_one_view(8, 2);
    view.colormap = m.map;
    view.range_min = -1.5f;
    view.range_max = 2.5f;
    const Image frame = r.render(view, {}, 1);
    for (int x : {0, 1, 3}) EXPECT_TRUE(rgb_near(frame, x, 1, m.low));
    for (int x : {4, 6, 7}) EXPECT_TRUE(rgb_near(frame, x, 1, m.high));
  }
}

TEST(RenderImage, DivergingMapShowsZeroAsNeutralGray) {
  const Image output = filled(4, 4, 1, ElemType::F32, 0.0f);
  auto r = test::make_renderer(4, 4);
  r.renderer().update(with_output(output, output));
  ui::ViewState view = test::one_to_one_view(4, 4);
  view.colormap = ui::Colormap::Diverging;
  const ui::ValueRange range = ui::suggested_range(output.shape(), true, &output);
  view.range_min = range.min;
  view.range_max = range.max;
  EXPECT_EQ(range.min, -range.max);
  const test::Rgb mid = test::rgb_at(r.render(view, {}, 1), 2, 2);
  EXPECT_NEAR(mid[0], 221, 3);  // Moreland's midpoint gray
  EXPECT_NEAR(mid[1], 221, 3);
  EXPECT_NEAR(mid[2], 221, 3);
}

TEST(RenderImage, NanShowsMagenta) {
  Image output = filled(3, 3, 1, ElemType::F32, 0.5f);
  output.row<float>(1)[1] = std::numeric_limits<float>::quiet_NaN();
  auto r = test::make_renderer(3, 3);
  r.renderer().update(with_output(output, output));
  const Image frame = r.render(test::one_to_one_view(3, 3), {}, 1);
  EXPECT_TRUE(rgb_near(frame, 1, 1, {255, 0, 255}));
  EXPECT_TRUE(rgb_near(frame, 0, 0, {128, 128, 128}, 1));
}

TEST(RenderImage, SplitShowsInputLeftAndOutputRight) {
  const Image input = filled(100, 20, 1, ElemType::U8, 50);
  const Image output = filled(100, 20, 1, ElemType::U8, 200);
  auto r = test::make_renderer(100, 20);
  r.renderer().update(with_output(input, output));
  ui::ViewState view = test::one_to_one_view(100, 20);
  view.range_min = 0;
  view.range_max = 255;
  view.split = true;
  view.split_position = 0.3f;  // screen x 30
  const Image frame = r.render(view, {}, 1);
  for (int x : {0, 10, 27}) EXPECT_TRUE(rgb_near(frame, x, 10, {50, 50, 50})) << x;
  for (int x : {31, 60, 99}) EXPECT_TRUE(rgb_near(frame, x, 10, {200, 200, 200})) << x;
  EXPECT_TRUE(rgb_near(frame, 29, 10, {217, 217, 217}, 1));  // the split line
  view.split = false;
  EXPECT_TRUE(rgb_near(r.render(view, {}, 1), 10, 10, {200, 200, 200}));  // without the split: the output
}

// A signed single-channel result shown in the diverging map: the split's input half stays gray (it was drawn
// through the output's colormap, issue 15).
TEST(RenderImage, SplitShowsTheInputInGrayWhateverTheOutputsColormap) {
  const Image input = filled(100, 20, 1, ElemType::U8, 50);
  const Image output = filled(100, 20, 1, ElemType::F32, -0.5f);
  auto r = test::make_renderer(100, 20);
  r.renderer().update(with_output(input, output));
  ui::ViewState view = test::one_to_one_view(100, 20);
  view.colormap = ui::Colormap::Diverging;
  view.range_min = -1;
  view.range_max = 1;
  view.split = true;
  view.split_position = 0.5f;
  const Image frame = r.render(view, {}, 1);
  for (int x : {5, 40}) EXPECT_TRUE(rgb_near(frame, x, 10, {50, 50, 50})) << x;  // u8 50 in gray
  const auto& diverging = ui::colormap_table(ui::Colormap::Diverging);
  const auto expected = diverging[64];  // t = (-0.5 + 1) / 2 = 0.25 -> entry 63.75, the nearest texel 64
  for (int x : {60, 95})
    EXPECT_TRUE(rgb_near(frame, x, 10, {int(expected[0]), int(expected[1]), int(expected[2])}, 3)) << x;
}

TEST(RenderImage, MagnifiedPixelsStaySharpSquares) {
  Image input(2, 2, 1, ElemType::U8);
  const std::uint8_t v[4] = {10, 90, 170, 250};
  for (int i = 0; i < 4; ++i) input.elements<std::uint8_t>()[std::size_t(i)] = v[i];
  auto r = test::make_renderer(16, 16);
  r.renderer().update(input_only(input));
  ui::ViewState view = test::one_to_one_view(2, 2);
  view.zoom = 8.0f;  // each image pixel covers 8x8 screen pixels
  const Image frame = r.render(view, {}, 1);
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x) {
      const int expected = v[(y / 8) * 2 + x / 8];
      ASSERT_TRUE(rgb_near(frame, x, y, {expected, expected, expected})) << "nearest sampling when magnified";
    }
}

// A window of a world too large to be an image (DisplayFrame::output_placement: a Life world past 2^30 cells) is
// drawn where it lies in the world, each of its pixels a square of cells_per_pixel cells, and nothing around it.
TEST(RenderImage, AnOutputWindowIsDrawnAtItsPlaceInTheWorld) {
  Image window(3, 2, 1, ElemType::F32);
  const float v[6] = {10, 90, 170, 250, 50, 130};
  for (int i = 0; i < 6; ++i) window.elements<float>()[std::size_t(i)] = v[i];
  ui::DisplayFrame f;
  f.output = &window;
  f.output_generation = 1;
  f.output_placement = ui::OutputPlacement{1000, 2000, 4, 40000, 30000};  // cells 1000..1011 x 2000..2007
  auto r = test::make_renderer(32, 16);
  r.renderer().update(f);
  EXPECT_EQ(r.renderer().shown_shape().width, 40000) << "the whole world, for the legend's placement";
  ui::ViewState view;
  view.zoom = 2.0f;  // 2 screen pixels a cell: 8 a window pixel
  view.center_x = 1000 + 16 / 2.0f;  // cell (1000, 2000) at the screen's top-left corner
  view.center_y = 2000 + 8 / 2.0f;
  view.range_min = 0;
  view.range_max = 255;
  const Image frame = r.render(view, {}, 1);
  const Image empty_screen = [&] {
    auto blank = test::make_renderer(1, 1);
    return blank.render(view, {}, 1);
  }();
  const std::uint8_t* background = empty_screen.row<std::uint8_t>(0);
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 32; ++x) {
      if (x < 24) {
        const int expected = int(v[(y / 8) * 3 + x / 8]);
        ASSERT_TRUE(rgb_near(frame, x, y, {expected, expected, expected}, 1)) << x << "," << y;
      } else {
        ASSERT_TRUE(rgb_near(frame, x, y, {background[0], background[1], background[2]}, 1))
            << "cells right of the window are not drawn: " << x << "," << y;
      }
    }
}

TEST(RenderImage, MinifiedPixelsAreFilteredLinearly) {
  Image input(2, 1, 1, ElemType::U8);
  input.elements<std::uint8_t>()[0] = 0;
  input.elements<std::uint8_t>()[1] = 254;
  auto r = test::make_renderer(1, 1);
  r.renderer().update(input_only(input));
  ui::ViewState view = test::one_to_one_view(2, 1);
  view.zoom = 0.5f;  // both image pixels fall into the one screen pixel; its centre samples between them
  EXPECT_TRUE(rgb_near(r.render(view, {}, 1), 0, 0, {127, 127, 127}, 1));
}

TEST(RenderImage, ZoomAroundTheCursorKeepsThePixelUnderIt) {
  const Image input = test::random_image(64, 48, 1, ElemType::U8, 13);
  auto r = test::make_renderer(64, 48);
  r.renderer().update(input_only(input));
  ui::ViewState view = test::one_to_one_view(64, 48);
  const ui::Vec2 cursor{41.5, 17.5};
  const test::Rgb before = test::rgb_at(r.render(view, {}, 1), 41, 17);
  for (double factor : {2.0, 8.0, 1.0 / 8.0}) {
    const ui::ViewState zoomed = ui::zoom_around(ui::one_to_one(view), {64, 48}, factor, cursor);
    const ui::PixelHit hit = ui::pixel_at(zoomed, {64, 48}, {64, 48}, cursor);
    ASSERT_TRUE(hit.inside);
    EXPECT_EQ(hit.x, 41);
    EXPECT_EQ(hit.y, 17);
    if (factor > 1) {
      EXPECT_EQ(test::rgb_at(r.render(zoomed, {}, 1), 41, 17), before) << factor;
    }
  }
}

TEST(RenderImage, TiledTexturesDrawLikeOneTexture) {
  const Image input = test::random_image(300, 200, 4, ElemType::U8, 14);
  auto whole = test::make_renderer(300, 200);
  whole.renderer().update(input_only(input));
  const Image one = whole.render(test::one_to_one_view(300, 200), {}, 1);
  EXPECT_EQ(whole.renderer().texture_count(), 1u);

  ui::FrameRenderer::Options small;
  small.max_texture_size = 64;  // as if GL_MAX_TEXTURE_SIZE were 64: 5 x 4 tiles
  auto tiled = test::make_renderer(300, 200, small);
  tiled.renderer().update(input_only(input));
  EXPECT_EQ(tiled.renderer().texture_count(), 20u);
  const Image many = tiled.render(test::one_to_one_view(300, 200), {}, 1);
  EXPECT_TRUE(test::images_match(many, one));
}

TEST(RenderImage, DrawingNeverTransfersPixelsAgain) {
  const Image input = test::random_image(50, 40, 1, ElemType::U8, 15);
  const Image output = test::random_image(50, 40, 1, ElemType::U8, 16);
  auto r = test::make_renderer(50, 40);
  const ui::DisplayUpdate first = r.renderer().update(with_output(input, output, 1));
  EXPECT_TRUE(first.input_changed);
  EXPECT_TRUE(first.output_changed);
  const std::uint64_t transfers = r.renderer().transfer_count();
  EXPECT_EQ(transfers, 2u);
  ui::ViewState view = test::one_to_one_view(50, 40);
  for (int i = 0; i < 10; ++i) {
    view = ui::pan(view, {3.0, -2.0});
    view.zoom *= 1.1f;
    r.render(view, {}, 1);
  }
  const ui::DisplayUpdate same = r.renderer().update(with_output(input, output, 1));  // same generations
  EXPECT_FALSE(same.input_changed);
  EXPECT_FALSE(same.output_changed);
  EXPECT_EQ(r.renderer().transfer_count(), transfers);
  const ui::DisplayUpdate next = r.renderer().update(with_output(input, output, 2));  // a new result
  EXPECT_FALSE(next.input_changed);
  EXPECT_TRUE(next.output_changed);
  EXPECT_EQ(r.renderer().transfer_count(), transfers + 1);
}

TEST(RenderImage, AHostResultSaysItIsUploadedAndWhy) {
  const Image input = filled(8, 8, 1, ElemType::U8, 1);
  auto r = test::make_renderer(8, 8);
  EXPECT_EQ(r.renderer().display_path(), "no result yet");
  r.renderer().update(with_output(input, input));
  EXPECT_EQ(r.renderer().display_path(), "host upload: the result is on the host (CPU backend)");
  EXPECT_FALSE(r.renderer().interop_active());
  EXPECT_GE(r.renderer().last_output_update().output_ms, 0.0);
  r.renderer().update(input_only(input));
  EXPECT_FALSE(r.renderer().has_output());
  EXPECT_EQ(r.renderer().display_path(), "no result yet");
}

// A result that did not come from the CPU backend (your kernel's, from its worker process) says where it came from.
TEST(RenderImage, AHostResultFromTheWorkerSaysSo) {
  const Image input = filled(8, 8, 1, ElemType::U8, 1);
  auto r = test::make_renderer(8, 8);
  ui::DisplayFrame frame = with_output(input, input);
  frame.host_origin = ui::kUserResultOnHost;
  r.renderer().update(frame);
  EXPECT_EQ(r.renderer().display_path(), std::string("host upload: ") + ui::kUserResultOnHost);
  EXPECT_EQ(r.renderer().display_path().find("CPU backend"), std::string::npos);
}

TEST(RenderImage, An8192SquareImageIsOneTextureWhereTheDriverAllowsIt) {
  const Image input = filled(8192, 8192, 1, ElemType::U8, 77);
  auto r = test::make_renderer(64, 64);
  if (r.renderer().max_texture_size() < 8192) GTEST_SKIP() << "GL_MAX_TEXTURE_SIZE " << r.renderer().max_texture_size();
  r.renderer().update(input_only(input));
  EXPECT_EQ(r.renderer().texture_count(), 1u);
  ui::ViewState view = ui::fit(test::one_to_one_view(64, 64), {8192, 8192}, {64, 64});
  EXPECT_TRUE(rgb_near(r.render(view, {}, 1), 32, 32, {77, 77, 77}));
}

}  // namespace
}  // namespace ks
