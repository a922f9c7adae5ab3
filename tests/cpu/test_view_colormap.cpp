// Colormap tables and value ranges of the viewport: ends at the published colours, monotonic lightness where the
// map promises it, ranges that fit the result's type and sign.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "render/value_range.hpp"
#include "report/colormap.hpp"
#include "session/display_frame.hpp"

namespace ks::ui {
namespace {

int luma(const Rgba8& c) { return 299 * c[0] + 587 * c[1] + 114 * c[2]; }

TEST(ViewColormap, EndsAreThePublishedColours) {
  // matplotlib's viridis #440154 -> #fde725, magma #000004 -> #fcfdbf; Moreland's cool-warm ends.
  EXPECT_EQ(colormap_table(Colormap::Viridis).front(), (Rgba8{0x44, 0x01, 0x54, 255}));
  EXPECT_EQ(colormap_table(Colormap::Viridis).back(), (Rgba8{0xfd, 0xe7, 0x25, 255}));
  EXPECT_EQ(colormap_table(Colormap::Magma).front(), (Rgba8{0x00, 0x00, 0x04, 255}));
  EXPECT_EQ(colormap_table(Colormap::Magma).back(), (Rgba8{0xfc, 0xfd, 0xbf, 255}));
  EXPECT_EQ(colormap_table(Colormap::Diverging).front(), (Rgba8{59, 76, 192, 255}));
  EXPECT_EQ(colormap_table(Colormap::Diverging).back(), (Rgba8{180, 4, 38, 255}));
  const ColormapTable& gray = colormap_table(Colormap::Gray);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(gray[std::size_t(i)], (Rgba8{std::uint8_t(i), std::uint8_t(i), std::uint8_t(i), 255}));
}

TEST(ViewColormap, ViridisMiddleIsItsPublishedTeal) {
  // viridis(0.5) = #21918c; the table's entry 127/128 straddles it.
  const Rgba8 mid = colormap_table(Colormap::Viridis)[128];
  EXPECT_NEAR(mid[0], 0x21, 3);
  EXPECT_NEAR(mid[1], 0x91, 3);
  EXPECT_NEAR(mid[2], 0x8c, 3);
}

TEST(ViewColormap, SequentialMapsGetLighterAlongTheTable) {
  for (Colormap map : {Colormap::Gray, Colormap::Viridis, Colormap::Magma}) {
    const ColormapTable& t = colormap_table(map);
    // Every 8 entries: neighbouring entries may tie or dip by one level of one channel from rounding.
    for (std::size_t i = 8; i < t.size(); i += 8) ASSERT_GT(luma(t[i]), luma(t[i - 8])) << colormap_name(map) << " " << i;
    EXPECT_GT(luma(t[255]), luma(t[248]));
  }
}

TEST(ViewColormap, DivergingMapIsLightestAtZero) {
  const ColormapTable& t = colormap_table(Colormap::Diverging);
  const int middle = luma(t[127]);
  for (std::size_t i : {0u, 40u, 100u, 160u, 220u, 255u}) EXPECT_LT(luma(t[i]), middle) << i;
  EXPECT_GT(t[0][2], t[0][0]) << "negative end is blue";
  EXPECT_GT(t[255][0], t[255][2]) << "positive end is red";
}

TEST(ViewColormap, EveryMapHasANameAndATable) {
  EXPECT_EQ(all_colormaps().size(), 4u);
  for (Colormap map : all_colormaps()) {
    EXPECT_FALSE(colormap_name(map).empty());
    EXPECT_EQ(colormap_table(map).back()[3], 255);
  }
}

TEST(ViewRange, NaturalRangesOfEachType) {
  EXPECT_EQ(natural_range(ElemType::U8), (ValueRange{0, 255}));
  EXPECT_EQ(natural_range(ElemType::U16), (ValueRange{0, 65535}));
  EXPECT_EQ(natural_range(ElemType::F32), (ValueRange{0, 1}));
}

TEST(ViewRange, DataRangeLeavesOutAlphaAndNonFiniteValues) {
  Image img(3, 1, 4, ElemType::F32);
  const float v[12] = {0.5f, -2.0f, 0.25f, 100.0f,  // alpha 100 does not count
                       std::numeric_limits<float>::quiet_NaN(), 3.0f, 1.0f, -50.0f,
                       std::numeric_limits<float>::infinity(), 0.0f, 0.0f, 1.0f};
  std::copy(v, v + 12, img.elements<float>().begin());
  const auto r = data_range(img);
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, (ValueRange{-2.0f, 3.0f}));
  Image nan(1, 1, 1, ElemType::F32);
  nan.elements<float>()[0] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(data_range(nan));
  Image u8(2, 1, 1, ElemType::U8);
  u8.elements<std::uint8_t>()[0] = 7;
  u8.elements<std::uint8_t>()[1] = 200;
  EXPECT_EQ(*data_range(u8), (ValueRange{7, 200}));
}

TEST(ViewRange, SignedResultsGetARangeSymmetricAboutZero) {
  Image lap(4, 1, 1, ElemType::F32);
  const float v[4] = {-0.25f, 0.1f, 0.6f, 0.0f};
  std::copy(v, v + 4, lap.elements<float>().begin());
  EXPECT_EQ(suggested_range(lap.shape(), true, &lap), (ValueRange{-0.6f, 0.6f}));
  EXPECT_EQ(suggested_range(lap.shape(), false, &lap), (ValueRange{0, 1}));
  EXPECT_EQ(suggested_range(lap.shape(), true, nullptr), (ValueRange{-1, 1})) << "no host copy: +-1";
  Image zeros(2, 2, 1, ElemType::F32);
  EXPECT_EQ(suggested_range(zeros.shape(), true, &zeros), (ValueRange{-1, 1}));
  // u8 results are saturated to 0..255 by the kernels, so signed ones keep the natural range.
  Image u8(2, 2, 1, ElemType::U8);
  EXPECT_EQ(suggested_range(u8.shape(), true, &u8), (ValueRange{0, 255}));
}

}  // namespace
}  // namespace ks::ui
