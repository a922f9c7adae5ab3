// Checking an output against a reference (gpu/usercode/check): images of odd sizes and 1 or 4 channels, arrays and
// a scalar; equality, one changed value found at its place, the tolerance's edges, NaN and infinities, and outputs
// that cannot be compared. Every expected figure is worked out here from the values the test planted.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "support/test_support.hpp"
#include "usercode/check/compare.hpp"

namespace ks::usercode {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// Values that vary over the image (a hash of the index), so a misplaced read would find another value.
Image patterned(int width, int height, int channels, ElemType type) {
  Image img(width, height, channels, type);
  const std::size_t n = img.shape().pixel_count() * std::size_t(channels);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t h = static_cast<std::uint32_t>(i) * 2654435761u;
    if (type == ElemType::U8)
      img.elements<std::uint8_t>()[i] = static_cast<std::uint8_t>(h >> 24);
    else
      img.elements<float>()[i] = static_cast<float>(h >> 8) / 65536.f - 128.f;
  }
  return img;
}

float& f32_at(Image& img, int x, int y, int c) { return img.row<float>(y)[x * img.channels() + c]; }
std::uint8_t& u8_at(Image& img, int x, int y, int c) { return img.row<std::uint8_t>(y)[x * img.channels() + c]; }

using test::usage_error;

TEST(UsercodeCompare, EqualImagesOfOddSizesMatch) {
  struct Case {
    int w, h, c;
    ElemType type;
  };
  for (const Case& k : {Case{1, 1, 1, ElemType::U8}, Case{1, 1, 4, ElemType::F32}, Case{1023, 7, 4, ElemType::U8},
                        Case{1023, 7, 1, ElemType::F32}, Case{7, 1023, 4, ElemType::F32}}) {
    SCOPED_TRACE(testing::Message() << k.w << "x" << k.h << "x" << k.c << " " << to_string(k.type));
    const Image reference = patterned(k.w, k.h, k.c, k.type);
    const Image got = reference;
    const Comparison c = compare_images(got, reference);
    EXPECT_TRUE(c.matches());
    EXPECT_EQ(c.compared, std::size_t(k.w) * std::size_t(k.h));
    EXPECT_EQ(c.differing, 0u);
    EXPECT_EQ(c.fraction(), 0.0);
    EXPECT_EQ(c.max_abs_diff, 0.0);
    EXPECT_FALSE(c.first);
    ASSERT_TRUE(c.max_at);  // every value ties at 0: the first one
    EXPECT_EQ(c.max_at->x, 0);
    EXPECT_EQ(c.max_at->y, 0);
    EXPECT_EQ(comparison_summary(c),
              "matches: 0 of " + std::to_string(k.w * k.h) + " pixels differ (max |diff| 0)");
  }
}

TEST(UsercodeCompare, OneChangedValueIsFoundAtItsPixelAndChannel) {
  const Image reference = patterned(1023, 7, 4, ElemType::U8);
  Image got = reference;
  const int expected = u8_at(got, 17, 3, 2);
  u8_at(got, 17, 3, 2) = static_cast<std::uint8_t>(expected < 255 ? expected + 1 : expected - 1);
  const Comparison c = compare_images(got, reference);
  EXPECT_FALSE(c.matches());
  EXPECT_EQ(c.compared, 1023u * 7u);
  EXPECT_EQ(c.differing, 1u);
  EXPECT_DOUBLE_EQ(c.fraction(), 1.0 / (1023.0 * 7.0));
  EXPECT_EQ(c.max_abs_diff, 1.0);
  ASSERT_TRUE(c.first);
  EXPECT_EQ(c.first->x, 17);
  EXPECT_EQ(c.first->y, 3);
  EXPECT_EQ(c.first->channel, 2);
  EXPECT_EQ(c.first->index, 3u * 1023u + 17u);
  EXPECT_EQ(c.first->expected, expected);
  EXPECT_EQ(c.first->got, u8_at(got, 17, 3, 2));
  ASSERT_TRUE(c.max_at);
  EXPECT_EQ(c.max_at->x, 17);
  EXPECT_EQ(c.max_at->y, 3);
  EXPECT_EQ(c.max_at->channel, 2);
  // 1 of 7161 is 0.014%.
  EXPECT_EQ(comparison_summary(c), "differs: 1 of 7161 pixels (0.01%) are not equal; max |diff| 1 at (17, 3) channel 2: got " +
                                       std::to_string(u8_at(got, 17, 3, 2)) + ", expected " +
                                       std::to_string(expected));
}

TEST(UsercodeCompare, FirstIsInRowMajorOrderAndMaxIsTheLargest) {
  const Image reference = patterned(1023, 7, 4, ElemType::F32);
  Image got = reference;
  f32_at(got, 900, 1, 3) += 0.25f;  // row 1: first in row-major order
  f32_at(got, 5, 6, 0) += 2.f;      // row 6: the largest
  f32_at(got, 6, 6, 1) += 2.f;      // ties with the largest, later
  // A pixel with three channels changed counts once.
  f32_at(got, 1000, 2, 0) += 1.f;
  f32_at(got, 1000, 2, 1) += 1.f;
  f32_at(got, 1000, 2, 3) += 1.f;
  const Comparison c = compare_images(got, reference, Tolerance{0, 0});
  EXPECT_EQ(c.differing, 4u);
  ASSERT_TRUE(c.first);
  EXPECT_EQ(c.first->x, 900);
  EXPECT_EQ(c.first->y, 1);
  EXPECT_EQ(c.first->channel, 3);
  ASSERT_TRUE(c.max_at);
  EXPECT_EQ(c.max_at->x, 5);
  EXPECT_EQ(c.max_at->y, 6);
  EXPECT_EQ(c.max_at->channel, 0);
  // The planted values are multiples of 1/65536 below 128 in magnitude: adding 2 is exact in float.
  EXPECT_EQ(c.max_abs_diff, 2.0);
}

// The example, exactly: a 1024x1024 f32 image with 312 pixels off, one by 0.5 at (17, 3).
TEST(UsercodeCompare, SummaryOfAMegapixelImage) {
  Image reference(1024, 1024, 1, ElemType::F32);
  for (float& v : reference.elements<float>()) v = 12.f;
  Image got = reference;
  f32_at(got, 17, 3, 0) = 12.5f;
  for (int i = 1; i < 312; ++i) f32_at(got, i % 1024, 100 + i / 1024 * 7 + i % 5, 0) = 12.25f;
  Comparison c = compare_images(got, reference, Tolerance{0, 1e-5});
  EXPECT_EQ(c.differing, 312u);
  EXPECT_EQ(comparison_summary(c),
            "differs: 312 of 1048576 pixels (0.03%) beyond 1e-5 relative; max |diff| 0.5 at (17, 3) channel 0: got "
            "12.5, expected 12");
  c = compare_images(reference, reference, Tolerance{0, 1e-5});
  EXPECT_EQ(comparison_summary(c), "matches: 0 of 1048576 pixels differ (max |diff| 0)");
}

TEST(UsercodeCompare, ToleranceEdgesJustInsideAndJustOutside) {
  // |a - b| <= abs + rel * max(|a|, |b|). rel = 2^-10 and values near 1024 make every bound exact in float.
  const double rel = 1.0 / 1024.0;
  auto one_value = [&](float got, float expected, Tolerance t) {
    return compare_arrays(std::span<const float>(&got, 1), std::span<const float>(&expected, 1), t).matches();
  };
  EXPECT_TRUE(one_value(1023.f, 1024.f, {0, rel}));                 // |diff| 1 == 2^-10 * 1024
  EXPECT_FALSE(one_value(1023.f - 1.f / 1024.f, 1024.f, {0, rel}));  // 1 + 2^-10 > 1
  EXPECT_TRUE(one_value(1024.f, 1023.f, {0, rel}));                 // symmetric: max(|a|, |b|)
  EXPECT_TRUE(one_value(1025.f, 1024.f, {0, rel}));                 // 1 <= 1025 / 1024
  EXPECT_FALSE(one_value(1026.f, 1024.f, {0, rel}));                // 2 > 1026 / 1024
  // abs alone, and the two added: 0.5 + 2^-10 * 1024.5 = 1.5005 at 1024.5 vs 1023.
  EXPECT_TRUE(one_value(10.5f, 10.f, {0.5, 0}));
  EXPECT_FALSE(one_value(std::nextafter(10.5f, 11.f), 10.f, {0.5, 0}));
  EXPECT_TRUE(one_value(1024.5f, 1023.f, {0.5, rel}));
  EXPECT_FALSE(one_value(1024.5f, 1022.75f, {0.5, rel}));  // 1.75 > 0.5 + 1.00049
  // Near zero a relative bound alone demands exactness; the absolute floor lets rounding through.
  EXPECT_FALSE(one_value(1e-30f, 0.f, {0, 1e-5}));
  EXPECT_TRUE(one_value(1e-30f, 0.f, {1e-5, 1e-5}));

  // Doubles: the bound 2^-20 * 2^20 = 1 exactly; one ulp past it differs.
  const double e = 1048576.0;
  auto doubles = [&](double got, Tolerance t) {
    return compare_arrays(std::span<const double>(&got, 1), std::span<const double>(&e, 1), t).matches();
  };
  EXPECT_TRUE(doubles(e - 1.0, {0, 1.0 / 1048576.0}));
  EXPECT_FALSE(doubles(std::nextafter(e - 1.0, 0.0), {0, 1.0 / 1048576.0}));

  // u8: exact by default; abs 1 lets off-by-one through, not two.
  Image reference(3, 1, 1, ElemType::U8);
  reference.elements<std::uint8_t>()[1] = 100;
  Image got = reference;
  got.elements<std::uint8_t>()[1] = 101;
  EXPECT_FALSE(compare_images(got, reference).matches());
  EXPECT_TRUE(compare_images(got, reference, {1, 0}).matches());
  got.elements<std::uint8_t>()[1] = 102;
  EXPECT_FALSE(compare_images(got, reference, {1, 0}).matches());
}

TEST(UsercodeCompare, DefaultTolerancesPerType) {
  EXPECT_EQ(default_tolerance(ElemType::U8), (Tolerance{0, 0}));
  EXPECT_EQ(default_tolerance(ElemType::F32), (Tolerance{1e-5, 1e-5}));
  EXPECT_EQ(default_tolerance(DType::I32), (Tolerance{0, 0}));
  EXPECT_EQ(default_tolerance(DType::U32), (Tolerance{0, 0}));
  EXPECT_EQ(default_tolerance(DType::F64), (Tolerance{1e-5, 1e-5}));
  // A float result one part in a million off matches by default, one in ten thousand does not.
  Image reference(2, 2, 1, ElemType::F32);
  for (float& v : reference.elements<float>()) v = 0.75f;
  Image got = reference;
  f32_at(got, 1, 1, 0) = 0.75f * (1 + 1e-6f);
  EXPECT_TRUE(compare_images(got, reference).matches());
  f32_at(got, 1, 1, 0) = 0.75f * (1 + 1e-4f);
  EXPECT_FALSE(compare_images(got, reference).matches());
  EXPECT_EQ(tolerance_text({0, 0}), "exact");
  EXPECT_EQ(tolerance_text({0, 1e-5}), "1e-5 relative");
  EXPECT_EQ(tolerance_text({0.5, 0}), "0.5 absolute");
  EXPECT_EQ(tolerance_text({1e-5, 1e-5}), "1e-5 relative + 1e-5 absolute");
}

TEST(UsercodeCompare, NaNAgreesOnlyWithNaNAndInfinityOnlyWithItself) {
  Image reference(5, 3, 4, ElemType::F32);
  for (float& v : reference.elements<float>()) v = 3.5f;
  f32_at(reference, 2, 1, 0) = kNaN;
  f32_at(reference, 4, 2, 3) = kInf;
  Image got = reference;
  // NaN where the reference has NaN, infinity where it has infinity: agree.
  Comparison c = compare_images(got, reference, Tolerance{0, 1});
  EXPECT_TRUE(c.matches());
  EXPECT_EQ(c.max_abs_diff, 0.0);
  EXPECT_EQ(c.nan_mismatches, 0u);

  // NaN against a number differs whatever the tolerance, and counts as an infinite difference.
  f32_at(got, 3, 0, 1) = kNaN;
  c = compare_images(got, reference, Tolerance{1e30, 1});
  EXPECT_EQ(c.differing, 1u);
  EXPECT_EQ(c.nan_mismatches, 1u);
  EXPECT_TRUE(std::isinf(c.max_abs_diff));
  ASSERT_TRUE(c.first);
  EXPECT_EQ(c.first->x, 3);
  EXPECT_EQ(c.first->y, 0);
  EXPECT_EQ(c.first->channel, 1);
  EXPECT_TRUE(std::isnan(c.first->got));
  EXPECT_EQ(c.first->expected, 3.5);
  EXPECT_EQ(comparison_summary(c),
            "differs: 1 of 15 pixels (6.67%) beyond 1 relative + 1e30 absolute; max |diff| inf at (3, 0) channel 1: "
            "got nan, expected 3.5; 1 value is NaN against a number");

  // A number where the reference has NaN, too.
  got = reference;
  f32_at(got, 2, 1, 0) = 0.f;
  c = compare_images(got, reference);
  EXPECT_EQ(c.differing, 1u);
  EXPECT_EQ(c.nan_mismatches, 1u);

  // An infinity against a finite value differs even where rel * max(|a|, |b|) is infinite.
  got = reference;
  f32_at(got, 0, 0, 0) = kInf;
  c = compare_images(got, reference, Tolerance{0, 1});
  EXPECT_EQ(c.differing, 1u);
  EXPECT_EQ(c.nan_mismatches, 0u);
  // And -infinity against +infinity.
  got = reference;
  f32_at(got, 4, 2, 3) = -kInf;
  EXPECT_EQ(compare_images(got, reference, Tolerance{0, 1}).differing, 1u);
}

TEST(UsercodeCompare, DifferenceImageIsTheLargestChannelDifference) {
  Image reference(3, 2, 4, ElemType::F32);
  Image got = reference;
  f32_at(got, 0, 0, 1) = 0.5f;
  f32_at(got, 0, 0, 3) = -0.75f;  // pixel (0, 0): max(0.5, 0.75)
  f32_at(got, 2, 0, 2) = 4.f;
  f32_at(got, 1, 1, 0) = kNaN;  // NaN against 0: infinite
  f32_at(reference, 2, 1, 2) = kNaN;
  f32_at(got, 2, 1, 2) = kNaN;  // NaN against NaN: 0
  const Image d = difference_image(got, reference);
  ASSERT_EQ(d.shape(), (ImageShape{3, 2, 1, ElemType::F32}));
  const std::vector<float> expected = {0.75f, 0.f, 4.f, 0.f, kInf, 0.f};
  const auto values = d.elements<float>();
  EXPECT_EQ(std::vector<float>(values.begin(), values.end()), expected);

  // u8: |got - expected| without wrapping around.
  Image r8(2, 1, 1, ElemType::U8), g8(2, 1, 1, ElemType::U8);
  r8.elements<std::uint8_t>()[0] = 10;
  g8.elements<std::uint8_t>()[0] = 250;
  r8.elements<std::uint8_t>()[1] = 250;
  g8.elements<std::uint8_t>()[1] = 10;
  const Image d8 = difference_image(g8, r8);
  EXPECT_EQ(d8.elements<float>()[0], 240.f);
  EXPECT_EQ(d8.elements<float>()[1], 240.f);
}

TEST(UsercodeCompare, ArraysAndAScalar) {
  // Integers are compared exactly, in double, without wrapping around.
  const std::vector<std::int32_t> ref_i = {-2147483647 - 1, 0, 7, 7};
  std::vector<std::int32_t> got_i = ref_i;
  got_i[0] = 2147483647;
  got_i[3] = 8;
  Comparison c = compare_arrays(std::span<const std::int32_t>(got_i), std::span<const std::int32_t>(ref_i), {0, 0});
  EXPECT_EQ(c.differing, 2u);
  EXPECT_EQ(c.max_abs_diff, 4294967295.0);
  ASSERT_TRUE(c.first);
  EXPECT_EQ(c.first->index, 0u);
  EXPECT_EQ(comparison_summary(c),
            "differs: 2 of 4 elements (50%) are not equal; max |diff| 4294967295 at element 0: got 2147483647, "
            "expected -2147483648");

  const std::vector<std::uint32_t> ref_u = {4000000000u, 1u};
  const std::vector<std::uint32_t> got_u = {4000000001u, 1u};
  c = compare_arrays(std::span<const std::uint32_t>(got_u), std::span<const std::uint32_t>(ref_u), {0, 0});
  EXPECT_EQ(c.max_abs_diff, 1.0);
  EXPECT_EQ(c.first->index, 0u);

  // A scalar out is an array of one, told as the two values.
  float got = 12.5f, expected = 12.f;
  c = compare_arrays(std::span<const float>(&got, 1), std::span<const float>(&expected, 1), {1e-5, 1e-5});
  EXPECT_EQ(comparison_summary(c), "differs: got 12.5, expected 12 (|diff| 0.5, beyond 1e-5 relative + 1e-5 absolute)");
  got = 12.f;
  c = compare_arrays(std::span<const float>(&got, 1), std::span<const float>(&expected, 1), {0, 0});
  EXPECT_EQ(comparison_summary(c), "matches: got 12, expected 12");
  got = 0.1f, expected = 0.1000001f;
  c = compare_arrays(std::span<const float>(&got, 1), std::span<const float>(&expected, 1), {0, 1e-5});
  EXPECT_TRUE(c.matches());
  // 0.1000001f - 0.1f is 9.6857548e-8: three digits of it.
  EXPECT_EQ(comparison_summary(c), "matches: got 0.1, expected 0.1000001 (|diff| 9.69e-8, within 1e-5 relative)");

  // The lab's arrays, any shape, in C order.
  NdArray a{.name = "out", .type = DType::F64, .shape = {2, 3}, .data = {}};
  a.data.resize(6 * sizeof(double));
  NdArray b = a;
  b.as<double>()[4] = 1e-3;
  c = compare_arrays(a, b);
  EXPECT_EQ(c.differing, 1u);
  EXPECT_EQ(c.first->index, 4u);
  EXPECT_EQ(c.tolerance, (Tolerance{1e-5, 1e-5}));
}

TEST(UsercodeCompare, OutputsThatCannotBeComparedAreUsageErrors) {
  const Image a(4, 4, 1, ElemType::F32);
  EXPECT_NE(usage_error([&] { compare_images(a, Image(4, 5, 1, ElemType::F32)); }).find("differ in size"),
            std::string::npos);
  EXPECT_NE(usage_error([&] { compare_images(a, Image(4, 4, 4, ElemType::F32)); })
                .find("the output (4x4, 1 channel, f32) and the reference (4x4, 4 channels, f32) differ in channels"),
            std::string::npos);
  EXPECT_NE(usage_error([&] { compare_images(a, Image(4, 4, 1, ElemType::U8)); }).find("differ in element type"),
            std::string::npos);
  EXPECT_NE(usage_error([&] { difference_image(a, Image(3, 4, 1, ElemType::F32)); }).find("differ in size"),
            std::string::npos);
  EXPECT_NE(usage_error([&] { compare_images(a, a, Tolerance{-1, 0}); }).find("absolute tolerance -1"),
            std::string::npos);
  EXPECT_NE(usage_error([&] { compare_images(a, a, Tolerance{0, std::nan("")}); }).find("relative tolerance nan"),
            std::string::npos);

  const std::vector<float> ten(10), eleven(11);
  EXPECT_NE(usage_error([&] { compare_arrays(std::span<const float>(ten), std::span<const float>(eleven), {}); })
                .find("the output has 10 elements but the reference has 11"),
            std::string::npos);
  NdArray f{.name = "", .type = DType::F32, .shape = {4}, .data = std::vector<std::byte>(16)};
  NdArray i = f;
  i.type = DType::I32;
  EXPECT_NE(usage_error([&] { compare_arrays(f, i); }).find("differ in element type"), std::string::npos);
  NdArray g = f;
  g.shape = {2, 2};
  EXPECT_NE(usage_error([&] { compare_arrays(f, g); }).find("differ in shape"), std::string::npos);
  NdArray u{.name = "", .type = DType::U64, .shape = {2}, .data = std::vector<std::byte>(16)};
  EXPECT_NE(usage_error([&] { compare_arrays(u, u); }).find("u64 arrays are not compared"), std::string::npos);
}

// Over a pool's threads the blocks of values merge in order: the same first value, the same (earliest) largest
// difference, the same counts as on one thread, whatever the threads did first.
TEST(UsercodeCompare, ThreadsGiveTheSameOutcome) {
  const Image reference = patterned(1023, 301, 4, ElemType::F32);  // 307923 pixels: 19 blocks of 16384
  Image got = reference;
  f32_at(got, 1022, 300, 3) += 4.f;  // the last value; ties with the one below
  f32_at(got, 3, 250, 1) += 4.f;     // the earliest of the largest
  f32_at(got, 7, 20, 0) = kNaN;      // the first that differs
  for (int y = 40; y < 300; y += 37) f32_at(got, y, y, 2) += 0.5f;
  ThreadPool pool(3);
  const Comparison one = compare_images(got, reference, Tolerance{0, 1e-5});
  const Comparison many = compare_images(got, reference, Tolerance{0, 1e-5}, &pool);
  EXPECT_EQ(one.differing, 3u + 8u);
  EXPECT_EQ(many.differing, one.differing);
  EXPECT_EQ(many.nan_mismatches, 1u);
  EXPECT_TRUE(std::isinf(many.max_abs_diff));  // the NaN: an infinite difference
  ASSERT_TRUE(many.first && one.first);
  EXPECT_EQ(many.first->x, 7);
  EXPECT_EQ(many.first->y, 20);
  EXPECT_EQ(many.max_at->x, 7);
  EXPECT_EQ(many.max_at->y, 20);
  EXPECT_EQ(comparison_summary(many), comparison_summary(one));

  // Without the NaN the largest is 4, first at (3, 250).
  f32_at(got, 7, 20, 0) = reference.row<float>(20)[7 * 4];
  const Comparison finite = compare_images(got, reference, Tolerance{0, 1e-5}, &pool);
  EXPECT_EQ(finite.max_abs_diff, 4.0);
  EXPECT_EQ(finite.max_at->x, 3);
  EXPECT_EQ(finite.max_at->y, 250);
  EXPECT_EQ(finite.max_at->channel, 1);

  const Image d1 = difference_image(got, reference);
  const Image dn = difference_image(got, reference, &pool);
  EXPECT_TRUE(std::equal(d1.elements<float>().begin(), d1.elements<float>().end(), dn.elements<float>().begin()));

  std::vector<double> a(100000, 1.0), b = a;
  b[99999] = 2.0;
  b[20000] = 2.0;
  const Comparison arrays = compare_arrays(std::span<const double>(a), std::span<const double>(b), {0, 0}, &pool);
  EXPECT_EQ(arrays.differing, 2u);
  EXPECT_EQ(arrays.first->index, 20000u);
  EXPECT_EQ(arrays.max_at->index, 20000u);
}

TEST(UsercodeCompare, EmptyImagesHaveNothingToDiffer) {
  const Image empty(0, 3, 1, ElemType::U8);
  const Comparison c = compare_images(empty, empty);
  EXPECT_TRUE(c.matches());
  EXPECT_EQ(c.compared, 0u);
  EXPECT_EQ(c.fraction(), 0.0);
  EXPECT_FALSE(c.max_at);
  EXPECT_EQ(comparison_summary(c), "matches: 0 of 0 pixels differ (max |diff| 0)");
}

}  // namespace
}  // namespace ks::usercode
