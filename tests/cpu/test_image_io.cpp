// Loading and saving: round trips through every save format, hand-made files of the load-only formats, the sample.
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "assets.hpp"
#include "core/error.hpp"
#include "core/image.hpp"
#include "io/image_io.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

std::vector<unsigned char> read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::filesystem::path write_bytes(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
  return p;
}

// Smooth content plus a little noise: compresses like a photo (JPEG's error stays small, PNG's filters other
// than "none" get picked), yet every value matters for the exact round trips.
Image photo_like(int w, int h, int channels, ElemType type, std::uint32_t seed) {
  Image noise = test::random_image(w, h, channels, ElemType::F32, seed);
  Image f(w, h, channels, ElemType::F32);
  auto out = f.elements<float>();
  auto n = noise.elements<float>();
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < channels; ++c) {
        const std::size_t i = (std::size_t(y) * w + x) * channels + c;
        const float smooth = 0.5f + 0.4f * std::sin(0.11f * x + 0.07f * y + 1.3f * c);
        out[i] = smooth + 0.02f * (n[i] - 0.5f);
      }
  return convert_type(f, type);
}

template <class T>
T at(const Image& img, int x, int y, int c) {
  return img.row<T>(y)[std::size_t(x) * img.channels() + c];
}

// Channel 0 alone (the gray of a gray+alpha image).
Image first_channel(const Image& img) {
  Image out(img.width(), img.height(), 1, img.type());
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) out.row<std::uint8_t>(y)[x] = at<std::uint8_t>(img, x, y, 0);
  return out;
}

double mean_abs_diff_u8(const Image& a, const Image& b) {
  auto ea = a.elements<std::uint8_t>();
  auto eb = b.elements<std::uint8_t>();
  double sum = 0;
  for (std::size_t i = 0; i < ea.size(); ++i) sum += std::abs(int(ea[i]) - int(eb[i]));
  return sum / double(ea.size());
}

class SaveLoad : public ::testing::TestWithParam<int> {
 protected:
  test::TempDir dir;
};

TEST_P(SaveLoad, PngU8IsExact) {
  const int c = GetParam();
  Image src = photo_like(37, 23, c, ElemType::U8, 1);
  save_image(src, dir / "a.png");
  EXPECT_TRUE(test::images_match(load_image(dir / "a.png"), src));
}

TEST_P(SaveLoad, Png16IsExact) {
  const int c = GetParam();
  Image src = photo_like(41, 19, c, ElemType::U16, 2);
  save_image(src, dir / "a.png");
  const auto bytes = read_bytes(dir / "a.png");
  // IHDR data starts at byte 16: width, height, then bit depth and color type.
  ASSERT_GT(bytes.size(), 26u);
  EXPECT_EQ(bytes[24], 16);
  const int color_type[] = {0, 0, 4, 2, 6};
  EXPECT_EQ(bytes[25], color_type[c]);
  Image back = load_image(dir / "a.png");
  EXPECT_EQ(back.type(), ElemType::U16);
  EXPECT_TRUE(test::images_match(back, src));
}

TEST_P(SaveLoad, TgaIsExact) {
  const int c = GetParam();
  Image src = photo_like(30, 20, c, ElemType::U8, 3);
  save_image(src, dir / "a.tga");
  EXPECT_TRUE(test::images_match(load_image(dir / "a.tga"), src));
}

TEST_P(SaveLoad, BmpKeepsColorAndAlpha) {
  // BMP has no gray: 1 channel comes back as RGB and 2 channels as RGBA, the gray replicated.
  const int c = GetParam();
  Image src = photo_like(13, 7, c, ElemType::U8, 4);
  save_image(src, dir / "a.bmp");
  const int expected_channels[] = {0, 3, 4, 3, 4};
  Image expected = convert_channels(src, expected_channels[c]);
  EXPECT_TRUE(test::images_match(load_image(dir / "a.bmp"), expected));
}

TEST_P(SaveLoad, JpegIsCloseAndDropsAlpha) {
  const int c = GetParam();
  Image src = photo_like(64, 48, c, ElemType::U8, 5);
  save_image(src, dir / "a.jpg");
  Image back = load_image(dir / "a.jpg");
  // stb writes JPEG as YCbCr: gray comes back as 3 equal channels, alpha is gone.
  ASSERT_EQ(back.channels(), 3);
  ASSERT_EQ(back.width(), 64);
  ASSERT_EQ(back.height(), 48);
  Image expected = c >= 3 ? convert_channels(src, 3) : convert_channels(first_channel(src), 3);
  EXPECT_LT(mean_abs_diff_u8(back, expected), 3.0);
}

TEST_P(SaveLoad, HdrKeepsFloatsWithinRgbePrecision) {
  const int c = GetParam();
  Image src = photo_like(16, 9, c, ElemType::F32, 6);
  for (float& v : src.elements<float>()) v *= 40.0f;  // HDR is for values above 1
  save_image(src, dir / "a.hdr");
  Image back = load_image(dir / "a.hdr");
  ASSERT_EQ(back.type(), ElemType::F32);
  ASSERT_EQ(back.channels(), 3);  // Radiance stores RGB; gray is replicated, alpha dropped
  for (int y = 0; y < 9; ++y)
    for (int x = 0; x < 16; ++x) {
      // RGBE: 8-bit mantissas sharing the exponent of the largest component, so the error is below
      // 1/256 of that component (times 2 for rounding on either side).
      float largest = 0;
      for (int k = 0; k < 3; ++k) largest = std::max(largest, at<float>(src, x, y, c >= 3 ? k : 0));
      for (int k = 0; k < 3; ++k) {
        const float expected = at<float>(src, x, y, c >= 3 ? k : 0);
        ASSERT_NEAR(at<float>(back, x, y, k), expected, largest / 100.0f) << x << "," << y << " ch " << k;
      }
    }
}

INSTANTIATE_TEST_SUITE_P(Channels, SaveLoad, ::testing::Values(1, 2, 3, 4),
                         [](const auto& info) { return std::to_string(info.param) + "ch"; });

TEST(SaveImage, PngBitDepthOverridesTheDefault) {
  test::TempDir dir;
  Image u8 = test::random_image(9, 5, 3, ElemType::U8, 10);
  save_image(u8, dir / "up.png", {.png_bit_depth = 16});
  Image up = load_image(dir / "up.png");
  EXPECT_EQ(up.type(), ElemType::U16);
  EXPECT_TRUE(test::images_match(up, convert_type(u8, ElemType::U16)));  // v * 257

  Image u16 = test::random_image(9, 5, 2, ElemType::U16, 11);
  save_image(u16, dir / "down.png", {.png_bit_depth = 8});
  Image down = load_image(dir / "down.png");
  EXPECT_EQ(down.type(), ElemType::U8);
  EXPECT_TRUE(test::images_match(down, convert_type(u16, ElemType::U8)));
}

TEST(SaveImage, FloatToPngRoundsAndSaturates) {
  test::TempDir dir;
  Image f(4, 1, 1, ElemType::F32);
  auto v = f.elements<float>();
  v[0] = 0.5f;   // 127.5 -> 128
  v[1] = -2.0f;  // -> 0
  v[2] = 7.0f;   // -> 255
  v[3] = 0.2f;   // 51
  save_image(f, dir / "f.png");
  Image back = load_image(dir / "f.png");
  ASSERT_EQ(back.type(), ElemType::U8);
  auto b = back.elements<std::uint8_t>();
  EXPECT_EQ(std::vector<int>(b.begin(), b.end()), (std::vector<int>{128, 0, 255, 51}));

  save_image(f, dir / "f16.png", {.png_bit_depth = 16});
  const Image back16 = load_image(dir / "f16.png");
  auto b16 = back16.elements<std::uint16_t>();
  EXPECT_EQ(std::vector<int>(b16.begin(), b16.end()), (std::vector<int>{32768, 0, 65535, 13107}));
}

TEST(SaveImage, HdrFromU8IsScaledTo0To1) {
  test::TempDir dir;
  Image u8(2, 1, 3, ElemType::U8);
  auto v = u8.elements<std::uint8_t>();
  const std::uint8_t values[] = {255, 0, 0, 51, 51, 51};
  std::copy(std::begin(values), std::end(values), v.begin());
  save_image(u8, dir / "u8.hdr");
  const Image loaded = load_image(dir / "u8.hdr");
  auto back = loaded.elements<float>();
  const float expected[] = {1.0f, 0.0f, 0.0f, 0.2f, 0.2f, 0.2f};
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(back[i], expected[i], 1.0f / 128.0f) << i;
}

TEST(SaveImage, JpegQualityChangesTheFile) {
  test::TempDir dir;
  Image src = photo_like(128, 96, 3, ElemType::U8, 12);
  save_image(src, dir / "hi.jpeg", {.jpeg_quality = 98, .png_bit_depth = std::nullopt});
  save_image(src, dir / "lo.JPG", {.jpeg_quality = 10, .png_bit_depth = std::nullopt});  // extensions are case-insensitive
  EXPECT_LT(std::filesystem::file_size(dir / "lo.JPG"), std::filesystem::file_size(dir / "hi.jpeg"));
  EXPECT_LT(mean_abs_diff_u8(load_image(dir / "hi.jpeg"), src), mean_abs_diff_u8(load_image(dir / "lo.JPG"), src));
}

TEST(SaveImage, OverwritesAnExistingFile) {
  test::TempDir dir;
  Image a = test::random_image(8, 8, 3, ElemType::U8, 13);
  Image b = test::random_image(5, 4, 1, ElemType::U8, 14);
  save_image(a, dir / "x.png");
  save_image(b, dir / "x.png");
  EXPECT_TRUE(test::images_match(load_image(dir / "x.png"), b));
  // Only the target is left: no temporary files.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator()), 1);
}

TEST(LoadImage, EmbeddedSampleIs1024x768Rgb) {
  Image img = load_image_from_memory(embedded::sample_png(), "embedded sample");
  EXPECT_EQ(img.width(), 1024);
  EXPECT_EQ(img.height(), 768);
  EXPECT_EQ(img.channels(), 3);
  EXPECT_EQ(img.type(), ElemType::U8);
}

TEST(LoadImage, FromMemoryMatchesFromFile) {
  test::TempDir dir;
  Image src = test::random_image(20, 10, 4, ElemType::U16, 15);
  save_image(src, dir / "m.png");
  const auto bytes = read_bytes(dir / "m.png");
  EXPECT_TRUE(test::images_match(load_image_from_memory(bytes, "m.png"), load_image(dir / "m.png")));
}

TEST(LoadImage, BinaryPpmAndPgm) {
  test::TempDir dir;
  // 2x1 RGB: red, then (1, 2, 3).
  write_bytes(dir / "a.ppm", std::string("P6\n2 1\n255\n\xff\x00\x00\x01\x02\x03", 17));
  Image rgb = load_image(dir / "a.ppm");
  ASSERT_EQ(rgb.shape(), (ImageShape{2, 1, 3, ElemType::U8}));
  auto v = rgb.elements<std::uint8_t>();
  EXPECT_EQ(std::vector<int>(v.begin(), v.end()), (std::vector<int>{255, 0, 0, 1, 2, 3}));

  // 16-bit gray, big-endian samples: 0x1234 = 4660, 0xFFFF = 65535.
  write_bytes(dir / "b.pgm", std::string("P5\n2 1\n65535\n\x12\x34\xff\xff", 17));
  Image gray = load_image(dir / "b.pgm");
  ASSERT_EQ(gray.shape(), (ImageShape{2, 1, 1, ElemType::U16}));
  EXPECT_EQ(gray.elements<std::uint16_t>()[0], 4660);
  EXPECT_EQ(gray.elements<std::uint16_t>()[1], 65535);
}

TEST(LoadImage, GifFirstFrame) {
  test::TempDir dir;
  // 1x1 GIF, global palette {red, black}; LZW codes clear(4), 0, end(5) in 3 bits each = bytes 0x44 0x01.
  const std::string gif("GIF89a\x01\x00\x01\x00\x80\x00\x00"
                        "\xff\x00\x00\x00\x00\x00"
                        "\x2c\x00\x00\x00\x00\x01\x00\x01\x00\x00"
                        "\x02\x02\x44\x01\x00"
                        "\x3b",
                        35);
  Image img = load_image(write_bytes(dir / "a.gif", gif));
  ASSERT_EQ(img.width(), 1);
  ASSERT_EQ(img.height(), 1);
  ASSERT_EQ(img.channels(), 4);  // GIF decodes to RGBA
  auto v = img.elements<std::uint8_t>();
  EXPECT_EQ(std::vector<int>(v.begin(), v.end()), (std::vector<int>{255, 0, 0, 255}));
}

// A raw (uncompressed) RGB PSD of 2x1 pixels with the given depth; planes are stored one after another.
std::string psd(int depth, const std::vector<int>& planar) {
  std::string s = "8BPS";
  auto be16 = [&](int v) { s += char(v >> 8), s += char(v & 0xFF); };
  auto be32 = [&](long v) { be16(int(v >> 16)), be16(int(v & 0xFFFF)); };
  be16(1);                  // version
  s += std::string(6, '\0');  // reserved
  be16(3);                  // channels
  be32(1);                  // height
  be32(2);                  // width
  be16(depth);
  be16(3);  // RGB
  be32(0);  // color mode data
  be32(0);  // image resources
  be32(0);  // layers and masks
  be16(0);  // raw image data
  for (int v : planar) depth == 16 ? be16(v) : void(s += char(v));
  return s;
}

TEST(LoadImage, PsdComposite8And16Bit) {
  test::TempDir dir;
  // Planes R = {10, 20}, G = {30, 40}, B = {50, 60}; stb adds an opaque alpha.
  Image p8 = load_image(write_bytes(dir / "a.psd", psd(8, {10, 20, 30, 40, 50, 60})));
  ASSERT_EQ(p8.shape(), (ImageShape{2, 1, 4, ElemType::U8}));
  auto v8 = p8.elements<std::uint8_t>();
  EXPECT_EQ(std::vector<int>(v8.begin(), v8.end()), (std::vector<int>{10, 30, 50, 255, 20, 40, 60, 255}));

  Image p16 = load_image(write_bytes(dir / "b.psd", psd(16, {1000, 2000, 3000, 4000, 5000, 60000})));
  ASSERT_EQ(p16.shape(), (ImageShape{2, 1, 4, ElemType::U16}));
  auto v16 = p16.elements<std::uint16_t>();
  EXPECT_EQ(std::vector<int>(v16.begin(), v16.end()),
            (std::vector<int>{1000, 3000, 5000, 65535, 2000, 4000, 60000, 65535}));
}

TEST(ImageIoFormats, HelpTextsNameTheFormats) {
  for (const char* f : {"PNG", "JPEG", "BMP", "TGA", "GIF", "PSD", "HDR", "PNM"})
    EXPECT_NE(supported_load_formats().find(f), std::string::npos) << f;
  for (const char* f : {".png", ".jpg", ".jpeg", ".bmp", ".tga", ".hdr"})
    EXPECT_NE(supported_save_formats().find(f), std::string::npos) << f;
}

}  // namespace
}  // namespace ks
