// Image allocation, element type and channel conversions. Expected values are worked out by hand in comments.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/image.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

template <class T>
Image image_of(int width, int height, int channels, ElemType type, const std::vector<T>& values) {
  Image img(width, height, channels, type);
  auto el = img.elements<T>();
  EXPECT_EQ(el.size(), values.size());
  for (std::size_t i = 0; i < values.size() && i < el.size(); ++i) el[i] = values[i];
  return img;
}

template <class T>
std::vector<T> values_of(const Image& img) {
  auto el = img.elements<T>();
  return {el.begin(), el.end()};
}

ErrorKind kind_of_error(auto&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.kind();
  }
  ADD_FAILURE() << "no ks::Error thrown";
  return ErrorKind::Internal;
}

TEST(Image, ElemTypeNamesRoundTrip) {
  EXPECT_EQ(elem_size(ElemType::U8), 1u);
  EXPECT_EQ(elem_size(ElemType::U16), 2u);
  EXPECT_EQ(elem_size(ElemType::F32), 4u);
  for (ElemType t : {ElemType::U8, ElemType::U16, ElemType::F32}) EXPECT_EQ(elem_type_from_string(to_string(t)), t);
  EXPECT_STREQ(to_string(ElemType::U16), "u16");
  EXPECT_EQ(kind_of_error([] { elem_type_from_string("float"); }), ErrorKind::Usage);
}

TEST(Image, AllocatesZeroFilledPackedRows) {
  Image img(5, 3, 3, ElemType::U16);
  EXPECT_EQ(img.byte_size(), 5u * 3 * 3 * 2);
  EXPECT_EQ(img.shape().row_bytes(), 30u);
  for (auto v : img.elements<std::uint16_t>()) ASSERT_EQ(v, 0);
  // Row 2 starts 2 * 30 bytes in.
  EXPECT_EQ(reinterpret_cast<const std::byte*>(img.row<std::uint16_t>(2)), img.data() + 60);
  EXPECT_FALSE(img.empty());
}

TEST(Image, DefaultAndZeroSizedAreEmpty) {
  EXPECT_TRUE(Image().empty());
  EXPECT_EQ(Image().byte_size(), 0u);
  Image zero(0, 0, 3, ElemType::U8);
  EXPECT_TRUE(zero.empty());
  EXPECT_EQ(zero.byte_size(), 0u);
  EXPECT_TRUE(Image(Image().shape()).empty());  // the default shape is accepted back
}

TEST(Image, MadeFromBytesHoldsACopyOfThemAndRefusesAWrongCount) {
  std::vector<std::byte> bytes(3 * 2 * 4 * 4);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = std::byte(i * 7 + 1);
  const Image img(ImageShape{3, 2, 4, ElemType::F32}, bytes);
  ASSERT_EQ(img.byte_size(), bytes.size());
  EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), img.data()));
  bytes[0] = std::byte{0};
  EXPECT_EQ(img.data()[0], std::byte{1});  // a copy, not a view
  EXPECT_EQ(kind_of_error([&] { Image(ImageShape{3, 2, 4, ElemType::U8}, bytes); }), ErrorKind::Internal);
  EXPECT_EQ(kind_of_error([&] { Image(ImageShape{3, -2, 4, ElemType::U8}, bytes); }), ErrorKind::Usage);
}

TEST(Image, RefusesBadShapes) {
  EXPECT_EQ(kind_of_error([] { Image(-1, 4, 1, ElemType::U8); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of_error([] { Image(4, -1, 1, ElemType::U8); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of_error([] { Image(4, 4, 0, ElemType::U8); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of_error([] { Image(4, 4, 5, ElemType::U8); }), ErrorKind::Usage);
}

TEST(Image, AbsurdSizeIsOutOfMemoryWithTheSize) {
  // 2^20 * 2^20 * 4 channels * 4 bytes = 2^44 bytes = 17592186044416, beyond the 1 TiB limit.
  try {
    Image(1 << 20, 1 << 20, 4, ElemType::F32);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::OutOfMemory);
    EXPECT_NE(std::string(e.what()).find("17592186044416"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("1048576x1048576x4 f32"), std::string::npos) << e.what();
  }
  // INT_MAX^2 * 16 does not fit in 64 bits.
  const int big = std::numeric_limits<int>::max();
  EXPECT_EQ(kind_of_error([&] { Image(big, big, 4, ElemType::F32); }), ErrorKind::OutOfMemory);
}

TEST(ConvertType, U8ToF32ScalesTo0To1) {
  Image src = image_of<std::uint8_t>(3, 1, 1, ElemType::U8, {0, 51, 255});
  Image dst = convert_type(src, ElemType::F32);
  ASSERT_EQ(dst.type(), ElemType::F32);
  EXPECT_EQ(values_of<float>(dst), (std::vector<float>{0.0f, 0.2f, 1.0f}));  // 51 / 255 = 0.2
}

TEST(ConvertType, U16ToF32ScalesTo0To1) {
  Image src = image_of<std::uint16_t>(3, 1, 1, ElemType::U16, {0, 13107, 65535});
  EXPECT_EQ(values_of<float>(convert_type(src, ElemType::F32)), (std::vector<float>{0.0f, 0.2f, 1.0f}));
}

TEST(ConvertType, F32ToU8RoundsSaturatesAndZeroesNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  // 0.5 * 255 = 127.5 -> 128 (half up); 0.2 * 255 = 51; 0.001 * 255 = 0.255 -> 0; 0.003 * 255 = 0.765 -> 1;
  // out of range saturates; NaN -> 0.
  Image src = image_of<float>(10, 1, 1, ElemType::F32, {0.5f, 0.2f, 0.001f, 0.003f, -0.5f, 1.5f, nan, inf, -inf, 1.0f});
  EXPECT_EQ(values_of<std::uint8_t>(convert_type(src, ElemType::U8)),
            (std::vector<std::uint8_t>{128, 51, 0, 1, 0, 255, 0, 255, 0, 255}));
}

TEST(ConvertType, F32ToU16RoundsSaturatesAndZeroesNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // 0.5 * 65535 = 32767.5 -> 32768; 0.25 * 65535 = 16383.75 -> 16384.
  Image src = image_of<float>(5, 1, 1, ElemType::F32, {0.5f, 0.25f, -1.0f, 2.0f, nan});
  EXPECT_EQ(values_of<std::uint16_t>(convert_type(src, ElemType::U16)),
            (std::vector<std::uint16_t>{32768, 16384, 0, 65535, 0}));
}

TEST(ConvertType, U8ToU16MultipliesBy257) {
  Image src = image_of<std::uint8_t>(4, 1, 1, ElemType::U8, {0, 1, 128, 255});
  EXPECT_EQ(values_of<std::uint16_t>(convert_type(src, ElemType::U16)),
            (std::vector<std::uint16_t>{0, 257, 32896, 65535}));
}

TEST(ConvertType, U16ToU8RoundsToNearest) {
  // 128/257 = 0.498 -> 0; 129/257 = 0.502 -> 1; 385/257 = 1.498 -> 1; 386/257 = 1.502 -> 2; 65535 -> 255.
  Image src = image_of<std::uint16_t>(6, 1, 1, ElemType::U16, {128, 129, 385, 386, 65535, 65406});
  // 65406/257 = 254.498 -> 254.
  EXPECT_EQ(values_of<std::uint8_t>(convert_type(src, ElemType::U8)),
            (std::vector<std::uint8_t>{0, 1, 1, 2, 255, 254}));
}

TEST(ConvertType, U8ThroughU16AndF32IsLossless) {
  Image src = test::random_image(17, 9, 3, ElemType::U8, 42);
  EXPECT_TRUE(test::images_match(convert_type(convert_type(src, ElemType::U16), ElemType::U8), src));
  EXPECT_TRUE(test::images_match(convert_type(convert_type(src, ElemType::F32), ElemType::U8), src));
}

TEST(ConvertType, SameTypeCopiesAndKeepsShape) {
  Image src = test::random_image(7, 5, 2, ElemType::F32, 7);
  Image dst = convert_type(src, ElemType::F32);
  EXPECT_TRUE(test::images_match(dst, src, 0.0));
  EXPECT_NE(dst.data(), src.data());
}

TEST(ConvertChannels, GrayToRgbaAndRgb) {
  Image gray = image_of<std::uint8_t>(2, 1, 1, ElemType::U8, {10, 200});
  EXPECT_EQ(values_of<std::uint8_t>(convert_channels(gray, 4)),
            (std::vector<std::uint8_t>{10, 10, 10, 255, 200, 200, 200, 255}));
  EXPECT_EQ(values_of<std::uint8_t>(convert_channels(gray, 3)), (std::vector<std::uint8_t>{10, 10, 10, 200, 200, 200}));
}

TEST(ConvertChannels, GrayAlphaToRgba) {
  Image ga = image_of<std::uint16_t>(1, 1, 2, ElemType::U16, {1000, 7});
  EXPECT_EQ(values_of<std::uint16_t>(convert_channels(ga, 4)), (std::vector<std::uint16_t>{1000, 1000, 1000, 7}));
}

TEST(ConvertChannels, RgbToRgbaIsOpaqueForEachType) {
  Image u16 = image_of<std::uint16_t>(1, 1, 3, ElemType::U16, {1, 2, 3});
  EXPECT_EQ(values_of<std::uint16_t>(convert_channels(u16, 4)), (std::vector<std::uint16_t>{1, 2, 3, 65535}));
  Image f = image_of<float>(1, 1, 3, ElemType::F32, {0.1f, 0.2f, 0.3f});
  EXPECT_EQ(values_of<float>(convert_channels(f, 4)), (std::vector<float>{0.1f, 0.2f, 0.3f, 1.0f}));
}

TEST(ConvertChannels, RgbaToRgbDropsAlpha) {
  Image rgba = image_of<std::uint8_t>(2, 1, 4, ElemType::U8, {1, 2, 3, 4, 5, 6, 7, 8});
  EXPECT_EQ(values_of<std::uint8_t>(convert_channels(rgba, 3)), (std::vector<std::uint8_t>{1, 2, 3, 5, 6, 7}));
}

TEST(ConvertChannels, LumaRoundsForIntegers) {
  // (100, 150, 200): 29.9 + 88.05 + 22.8 = 140.75 -> 141.  (255, 0, 0): 76.245 -> 76.  (0, 0, 255): 29.07 -> 29.
  // (255, 255, 255) -> 255 exactly (no overflow).  Alpha is ignored.
  Image rgba = image_of<std::uint8_t>(4, 1, 4, ElemType::U8,
                                      {100, 150, 200, 0, 255, 0, 0, 255, 0, 0, 255, 9, 255, 255, 255, 255});
  EXPECT_EQ(values_of<std::uint8_t>(convert_channels(rgba, 1)), (std::vector<std::uint8_t>{141, 76, 29, 255}));
  Image rgb = image_of<std::uint8_t>(1, 1, 3, ElemType::U8, {100, 150, 200});
  EXPECT_EQ(values_of<std::uint8_t>(convert_channels(rgb, 1)), (std::vector<std::uint8_t>{141}));
  // U16 (1000, 2000, 3000): 299 + 1174 + 342 = 1815.
  Image rgb16 = image_of<std::uint16_t>(1, 1, 3, ElemType::U16, {1000, 2000, 3000});
  EXPECT_EQ(values_of<std::uint16_t>(convert_channels(rgb16, 1)), (std::vector<std::uint16_t>{1815}));
}

TEST(ConvertChannels, LumaIsNotRoundedForFloat) {
  // (0.5, 0.25, 1.0): 0.1495 + 0.14675 + 0.114 = 0.41025.
  Image f = image_of<float>(1, 1, 4, ElemType::F32, {0.5f, 0.25f, 1.0f, 0.0f});
  EXPECT_NEAR(values_of<float>(convert_channels(f, 1))[0], 0.41025f, 1e-6f);
}

TEST(ConvertChannels, SameCountCopies) {
  Image src = test::random_image(6, 4, 2, ElemType::U8, 3);
  EXPECT_TRUE(test::images_match(convert_channels(src, 2), src));
}

TEST(ConvertChannels, RefusesUnsupportedConversions) {
  Image ga(2, 2, 2, ElemType::U8);
  EXPECT_EQ(kind_of_error([&] { convert_channels(ga, 1); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of_error([&] { convert_channels(ga, 3); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of_error([&] { convert_channels(ga, 0); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of_error([&] { convert_channels(ga, 5); }), ErrorKind::Usage);
}

}  // namespace
}  // namespace ks
