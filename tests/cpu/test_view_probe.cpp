// The pixel inspector's lookup: the pixel under the cursor and the input and output values there, in the images'
// units, and its one-line text.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/pixel_values.hpp"
#include "render/pixel_probe.hpp"
#include "support/test_support.hpp"

namespace ks::ui {
namespace {

ViewState centred(int w, int h, float zoom) {
  ViewState v;
  v.zoom = zoom;
  v.center_x = 0.5f * float(w);
  v.center_y = 0.5f * float(h);
  return v;
}

TEST(ViewProbe, ReadsInputAndOutputUnderTheCursor) {
  const Image input = test::random_image(7, 5, 4, ElemType::U8, 31);
  const Image output = test::random_image(7, 5, 4, ElemType::U8, 32);
  DisplayFrame f;
  f.input = &input;
  f.output = &output;
  const ViewState v = centred(7, 5, 10.0f);  // 70x50 viewport, pixel (x, y) at [10x, 10x+10)
  const PixelProbe p = probe_pixel(f, v, {70, 50}, {63.0, 21.0});
  ASSERT_TRUE(p.inside);
  EXPECT_EQ(p.x, 6);
  EXPECT_EQ(p.y, 2);
  ASSERT_TRUE(p.has_input);
  ASSERT_TRUE(p.has_output);
  EXPECT_FALSE(p.output_from_device);
  const std::uint8_t* in = input.row<std::uint8_t>(2) + 4 * 6;
  const std::uint8_t* out = output.row<std::uint8_t>(2) + 4 * 6;
  for (int c = 0; c < 4; ++c) {
    EXPECT_EQ(p.input[std::size_t(c)], in[c]);
    EXPECT_EQ(p.output[std::size_t(c)], out[c]);
  }
  EXPECT_EQ(format_probe(p), fmt::format("(6, 2)  in {} {} {} {}  out {} {} {} {}", in[0], in[1], in[2], in[3],
                                         out[0], out[1], out[2], out[3]));
}

// Issue 23: kmeans makes an RGB u8 image of an RGBA or gray input, and the inspector read the output with the
// input's channel count ("out 15 15 15 0": an alpha the output does not have). Each image shows its own channels.
TEST(ViewProbe, InputAndOutputShowTheirOwnChannels) {
  const Image rgba = test::random_image(5, 3, 4, ElemType::U8, 35);
  const Image gray = test::random_image(5, 3, 1, ElemType::F32, 36);
  const Image rgb = test::random_image(5, 3, 3, ElemType::U8, 37);
  const ViewState v = centred(5, 3, 1.0f);
  const std::uint8_t* out = rgb.row<std::uint8_t>(1) + 3 * 4;
  DisplayFrame f;
  f.input = &rgba;
  f.output = &rgb;
  const PixelProbe p = probe_pixel(f, v, {5, 3}, {4.5, 1.5});
  ASSERT_TRUE(p.has_output);
  EXPECT_EQ(p.output_channels, 3);
  const std::uint8_t* in = rgba.row<std::uint8_t>(1) + 4 * 4;
  EXPECT_EQ(format_probe(p), fmt::format("(4, 1)  in {} {} {} {}  out {} {} {}", in[0], in[1], in[2], in[3], out[0],
                                         out[1], out[2]));
  f.input = &gray;
  EXPECT_EQ(format_probe(probe_pixel(f, v, {5, 3}, {4.5, 1.5})),
            fmt::format("(4, 1)  in {:.4g}  out {} {} {}", gray.row<float>(1)[4], out[0], out[1], out[2]));
}

TEST(ViewProbe, OffTheImageAndWithoutImagesThereIsNothing) {
  const Image input = test::random_image(3, 3, 1, ElemType::F32, 33);
  DisplayFrame f;
  f.input = &input;
  EXPECT_FALSE(probe_pixel(f, centred(3, 3, 1.0f), {100, 100}, {10, 10}).inside);
  EXPECT_EQ(format_probe(probe_pixel(f, centred(3, 3, 1.0f), {100, 100}, {10, 10})), "off the image");
  EXPECT_FALSE(probe_pixel(DisplayFrame{}, centred(3, 3, 1.0f), {3, 3}, {1, 1}).inside);
  const PixelProbe only_input = probe_pixel(f, centred(3, 3, 1.0f), {3, 3}, {1.5, 1.5});
  EXPECT_TRUE(only_input.has_input);
  EXPECT_FALSE(only_input.has_output);
}

TEST(ViewProbe, F32ValuesKeepTheirSignAndFourDigits) {
  Image out(2, 1, 1, ElemType::F32);
  out.elements<float>()[0] = -0.123456f;
  out.elements<float>()[1] = 1234.5f;
  DisplayFrame f;
  f.output = &out;
  const PixelProbe p = probe_pixel(f, centred(2, 1, 1.0f), {2, 1}, {0.5, 0.5});
  ASSERT_TRUE(p.has_output);
  EXPECT_FLOAT_EQ(float(p.output[0]), -0.123456f);
  EXPECT_EQ(format_probe(p), "(0, 0)  out -0.1235");
}

TEST(ViewProbe, PixelValuesAreCheckedToLieInsideTheImage) {
  const Image img = test::random_image(4, 3, 2, ElemType::U8, 34);
  EXPECT_EQ(read_pixel(img, 3, 2)[1], img.row<std::uint8_t>(2)[3 * 2 + 1]);
  EXPECT_EQ(read_pixel(img, 3, 2)[2], 0.0) << "channels past the image's are 0";
  for (auto [x, y] : {std::pair{4, 0}, std::pair{0, 3}, std::pair{-1, 1}}) {
    try {
      read_pixel(img, x, y);
      ADD_FAILURE() << x << "," << y;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage);
      EXPECT_NE(std::string(e.what()).find("4x3"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace ks::ui
