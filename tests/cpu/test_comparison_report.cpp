// A check against a reference as the reports give it (app/report): the difference heatmap through the colormap
// tables and the comparison's JSON. The figures are worked out here from the planted values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "report/colormap.hpp"
#include "report/comparison_json.hpp"
#include "report/diff_heatmap.hpp"
#include "support/test_support.hpp"
#include "usercode/check/compare.hpp"

namespace ks::report {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

Image diff_of(std::vector<float> values) {
  Image d(int(values.size()), 1, 1, ElemType::F32);
  std::copy(values.begin(), values.end(), d.elements<float>().begin());
  return d;
}

std::vector<int> levels_of(const Image& levels) {
  const auto v = levels.elements<std::uint8_t>();
  return {v.begin(), v.end()};
}

TEST(ComparisonReport, DiffLevelsShowEveryDifferenceAndSaturate) {
  // 0 stays 0; 1e-9 of 1 still shows (1); 0.5 is ceil(127.5); 1 and above, and infinities, reach 255.
  const Image d = diff_of({0.f, 1e-9f, 0.5f, 1.f, 2.f, kInf, kNaN});
  EXPECT_EQ(levels_of(diff_levels(d, 1.0)), (std::vector<int>{0, 1, 128, 255, 255, 255, 255}));
  EXPECT_EQ(levels_of(diff_levels(d, 4.0)), (std::vector<int>{0, 1, 32, 64, 128, 255, 255}));
  // The full scale: the largest finite difference; 1 when there is none above 0.
  EXPECT_EQ(diff_full_scale(d), 2.0);
  EXPECT_EQ(diff_full_scale(diff_of({0.f, 0.f})), 1.0);
  EXPECT_EQ(diff_full_scale(diff_of({kInf})), 1.0);
}

TEST(ComparisonReport, HeatmapUsesTheColormapTable) {
  Image reference(3, 2, 4, ElemType::F32);
  Image got = reference;
  got.row<float>(0)[1 * 4 + 2] = 0.5f;  // pixel (1, 0): half the largest
  got.row<float>(1)[2 * 4 + 0] = 1.f;   // pixel (2, 1): the largest
  const Image heat = diff_heatmap(usercode::difference_image(got, reference));
  ASSERT_EQ(heat.shape(), (ImageShape{3, 2, 3, ElemType::U8}));
  const ColormapTable& magma = colormap_table(Colormap::Magma);
  auto rgb = [&](int x, int y) {
    const std::uint8_t* p = heat.row<std::uint8_t>(y) + 3 * x;
    return std::vector<int>{p[0], p[1], p[2]};
  };
  auto entry = [&](int level) {
    const Rgba8& c = magma[std::size_t(level)];
    return std::vector<int>{c[0], c[1], c[2]};
  };
  EXPECT_EQ(rgb(0, 0), entry(0));
  EXPECT_EQ(rgb(1, 0), entry(128));
  EXPECT_EQ(rgb(2, 1), entry(255));
  EXPECT_EQ(rgb(0, 1), entry(0));
}

TEST(ComparisonReport, HeatmapRefusesWhatIsNotADifferenceImage) {
  EXPECT_NE(test::usage_error([] { diff_levels(Image(2, 2, 4, ElemType::F32), 1.0); }).find("not a 4-channel f32 one"),
            std::string::npos);
  EXPECT_NE(test::usage_error([] { diff_levels(Image(2, 2, 1, ElemType::U8), 1.0); }).find("not a 1-channel u8 one"),
            std::string::npos);
  EXPECT_NE(test::usage_error([] { diff_levels(Image(2, 2, 1, ElemType::F32), 0.0); }).find("full scale 0"),
            std::string::npos);
  EXPECT_NE(test::usage_error([] { diff_levels(Image(2, 2, 1, ElemType::F32), std::nan("")); }).find("full scale nan"),
            std::string::npos);
}

TEST(ComparisonReport, JsonOfAnImageCheck) {
  Image reference(5, 4, 4, ElemType::U8);
  Image got = reference;
  got.row<std::uint8_t>(3)[1 * 4 + 2] = 100;  // (1, 3) channel 2: 100 against 0
  got.row<std::uint8_t>(1)[4 * 4 + 0] = 3;    // (4, 1) channel 0: first in row-major order
  const auto j = comparison_json(usercode::compare_images(got, reference));
  EXPECT_EQ(j["matches"], false);
  EXPECT_EQ(j["compared"], 20);
  EXPECT_EQ(j["unit"], "pixels");
  EXPECT_EQ(j["differing"], 2);
  EXPECT_DOUBLE_EQ(j["fraction"].get<double>(), 0.1);
  EXPECT_EQ(j["max_abs_diff"], 100.0);
  EXPECT_EQ(j["max_at"].dump(), R"({"x":1,"y":3,"channel":2,"got":100,"expected":0})");
  EXPECT_EQ(j["first"].dump(), R"({"x":4,"y":1,"channel":0,"got":3,"expected":0})");
  EXPECT_EQ(j["nan_mismatches"], 0);
  EXPECT_EQ(j["tolerance"].dump(), R"({"abs":0.0,"rel":0.0})");
  EXPECT_EQ(j["summary"],
            "differs: 2 of 20 pixels (10%) are not equal; max |diff| 100 at (1, 3) channel 2: got 100, expected 0");
  // The keys in the documented order.
  std::vector<std::string> keys;
  for (const auto& item : j.items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"matches", "compared", "unit", "differing", "fraction", "max_abs_diff",
                                            "max_at", "first", "nan_mismatches", "tolerance", "summary"}));
}

TEST(ComparisonReport, JsonOfArraysFloatsAndNaN) {
  // Floats as their shortest text; NaN and the infinite difference it makes as null.
  const std::vector<float> reference = {0.1f, 2.f, 3.f};
  const std::vector<float> got = {0.1f, kNaN, 3.f};
  auto j = comparison_json(usercode::compare_arrays(std::span<const float>(got), std::span<const float>(reference),
                                                    usercode::Tolerance{0, 1e-5}));
  EXPECT_EQ(j["unit"], "elements");
  EXPECT_EQ(j["max_abs_diff"], nullptr);
  EXPECT_EQ(j["first"].dump(), R"({"index":1,"got":null,"expected":2.0})");
  EXPECT_EQ(j["nan_mismatches"], 1);
  EXPECT_EQ(j["tolerance"]["rel"], 1e-5);

  const std::vector<float> close = {0.1f, 2.f, 3.f};
  j = comparison_json(usercode::compare_arrays(std::span<const float>(close), std::span<const float>(reference),
                                               usercode::Tolerance{0, 1e-5}));
  EXPECT_EQ(j["matches"], true);
  EXPECT_EQ(j["first"], nullptr);
  EXPECT_EQ(j["max_at"].dump(), R"({"index":0,"got":0.1,"expected":0.1})");  // not 0.10000000149011612
}

}  // namespace
}  // namespace ks::report
