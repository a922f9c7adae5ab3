// Pan and zoom arithmetic of the viewport (ui/render/view_math): fit, 1:1, zoom about the cursor, screen <-> image
// coordinates, which pixel lies under a point, the split line; and how large images are cut into textures.
#include <gtest/gtest.h>

#include "render/tile_layout.hpp"
#include "render/view_math.hpp"

namespace ks::ui {
namespace {

TEST(ViewMath, ScreenAndImageCoordinatesAreInverse) {
  ViewState v;
  v.zoom = 2.5f;
  v.center_x = 100.0f;
  v.center_y = 40.0f;
  const Size2 vp{800, 600};
  // The centre of the viewport shows the view's centre.
  const Vec2 c = image_to_screen(v, vp, {100, 40});
  EXPECT_DOUBLE_EQ(c.x, 400);
  EXPECT_DOUBLE_EQ(c.y, 300);
  // One image pixel to the right is zoom screen pixels to the right.
  EXPECT_DOUBLE_EQ(image_to_screen(v, vp, {101, 40}).x, 402.5);
  for (Vec2 s : {Vec2{0, 0}, Vec2{799.5, 13.25}, Vec2{-40, 700}}) {
    const Vec2 back = image_to_screen(v, vp, screen_to_image(v, vp, s));
    EXPECT_NEAR(back.x, s.x, 1e-9);
    EXPECT_NEAR(back.y, s.y, 1e-9);
  }
}

TEST(ViewMath, FitShowsTheWholeImageCentred) {
  // Wide image in a tall viewport: width decides.
  ViewState v = fit({}, {1000, 250}, {500, 500});
  EXPECT_FLOAT_EQ(v.zoom, 0.5f);
  EXPECT_FLOAT_EQ(v.center_x, 500.0f);
  EXPECT_FLOAT_EQ(v.center_y, 125.0f);
  EXPECT_DOUBLE_EQ(image_to_screen(v, {500, 500}, {0, 0}).x, 0.0);
  EXPECT_DOUBLE_EQ(image_to_screen(v, {500, 500}, {1000, 250}).x, 500.0);
  // Tall image: height decides; a small image is magnified to fill.
  EXPECT_FLOAT_EQ(fit({}, {100, 400}, {800, 200}).zoom, 0.5f);
  EXPECT_FLOAT_EQ(fit({}, {10, 5}, {100, 100}).zoom, 10.0f);
  // Odd sizes: 1x1 fills the smaller side.
  EXPECT_FLOAT_EQ(fit({}, {1, 1}, {37, 23}).zoom, 23.0f);
  // Nothing to fit: the view stays as it was; other settings survive a fit.
  ViewState keep;
  keep.zoom = 3;
  keep.split = true;
  EXPECT_FLOAT_EQ(fit(keep, {0, 0}, {10, 10}).zoom, 3.0f);
  EXPECT_TRUE(fit(keep, {10, 10}, {10, 10}).split);
}

TEST(ViewMath, OneToOneKeepsTheCentre) {
  ViewState v = fit({}, {4000, 3000}, {800, 600});
  v.center_x = 1234.0f;
  const ViewState one = one_to_one(v);
  EXPECT_FLOAT_EQ(one.zoom, 1.0f);
  EXPECT_FLOAT_EQ(one.center_x, 1234.0f);
}

TEST(ViewMath, ZoomAroundTheCursorKeepsTheImagePointUnderIt) {
  const Size2 vp{640, 480};
  ViewState v = fit({}, {1023, 7}, vp);
  for (Vec2 cursor : {Vec2{10, 10}, Vec2{320, 240}, Vec2{639, 1}}) {
    for (double factor : {1.25, 0.8, 16.0}) {
      const Vec2 before = screen_to_image(v, vp, cursor);
      const ViewState z = zoom_around(v, vp, factor, cursor);
      EXPECT_NEAR(z.zoom, v.zoom * factor, 1e-4);
      const Vec2 after = screen_to_image(z, vp, cursor);
      EXPECT_NEAR(after.x, before.x, 1e-3);
      EXPECT_NEAR(after.y, before.y, 1e-3);
    }
  }
}

TEST(ViewMath, ZoomStopsAtItsLimits) {
  ViewState v;
  v.zoom = 200.0f;
  EXPECT_FLOAT_EQ(zoom_around(v, {100, 100}, 4.0, {50, 50}).zoom, float(kMaxZoom));
  v.zoom = 0.02f;
  EXPECT_FLOAT_EQ(zoom_around(v, {100, 100}, 0.25, {50, 50}).zoom, float(kMinZoom));
  EXPECT_FLOAT_EQ(zoom_around(v, {100, 100}, 0.0, {50, 50}).zoom, 0.02f) << "a zero factor changes nothing";
}

TEST(ViewMath, PanMovesTheImageWithThePointer) {
  ViewState v;
  v.zoom = 4.0f;
  v.center_x = 50.0f;
  v.center_y = 50.0f;
  const Size2 vp{200, 100};
  const Vec2 grabbed = screen_to_image(v, vp, {30, 70});
  const ViewState p = pan(v, {12, -8});
  const Vec2 now = screen_to_image(p, vp, {42, 62});  // the pointer moved by (12, -8)
  EXPECT_NEAR(now.x, grabbed.x, 1e-9);
  EXPECT_NEAR(now.y, grabbed.y, 1e-9);
}

TEST(ViewMath, PixelUnderAPointIncludesEdgesAndExcludesOutside) {
  ViewState v;
  v.zoom = 10.0f;
  v.center_x = 1.5f;  // a 3x2 image magnified 10x in a 30x20 viewport: exactly filling it
  v.center_y = 1.0f;
  const Size2 vp{30, 20}, img{3, 2};
  PixelHit h = pixel_at(v, vp, img, {0, 0});
  EXPECT_TRUE(h.inside);
  EXPECT_EQ(h.x, 0);
  EXPECT_EQ(h.y, 0);
  h = pixel_at(v, vp, img, {29.9, 19.9});
  EXPECT_TRUE(h.inside);
  EXPECT_EQ(h.x, 2);
  EXPECT_EQ(h.y, 1);
  h = pixel_at(v, vp, img, {15, 9.99});
  EXPECT_EQ(h.x, 1);
  EXPECT_EQ(h.y, 0);
  EXPECT_FALSE(pixel_at(v, vp, img, {30, 5}).inside);
  EXPECT_FALSE(pixel_at(v, vp, img, {-0.01, 5}).inside);
  EXPECT_FALSE(pixel_at(v, vp, img, {5, 20}).inside);
}

TEST(ViewMath, SplitLineDividesInputFromOutput) {
  ViewState v;
  v.split = true;
  v.split_position = 0.25f;
  const Size2 vp{400, 100};
  EXPECT_DOUBLE_EQ(split_screen_x(v, vp), 100.0);
  EXPECT_TRUE(shows_input_at(v, vp, 99.9));
  EXPECT_FALSE(shows_input_at(v, vp, 100.0));
  v.split = false;
  EXPECT_FALSE(shows_input_at(v, vp, 10.0)) << "without the split the output is everywhere";
}

TEST(TileLayout, OneTextureWhenItFits) {
  const auto tiles = tile_layout(8192, 8192, 16384);
  ASSERT_EQ(tiles.size(), 1u);
  EXPECT_EQ(tiles[0], (TileRect{0, 0, 8192, 8192}));
  EXPECT_EQ(tile_layout(16384, 1, 16384).size(), 1u);
}

TEST(TileLayout, LargerImagesAreCutIntoAGridThatCoversEveryPixelOnce) {
  const int w = 40000, h = 17000, max = 16384;
  const auto tiles = tile_layout(w, h, max);
  ASSERT_EQ(tiles.size(), 6u);  // 3 columns x 2 rows
  EXPECT_EQ(tiles[0], (TileRect{0, 0, 16384, 16384}));
  EXPECT_EQ(tiles[2], (TileRect{32768, 0, 40000 - 32768, 16384}));
  EXPECT_EQ(tiles[5], (TileRect{32768, 16384, 40000 - 32768, 17000 - 16384}));
  long long area = 0;
  for (const TileRect& t : tiles) {
    EXPECT_LE(t.width, max);
    EXPECT_LE(t.height, max);
    area += 1LL * t.width * t.height;
  }
  EXPECT_EQ(area, 1LL * w * h);
  EXPECT_TRUE(tile_layout(0, 5, 64).empty());
}

}  // namespace
}  // namespace ks::ui
