// Which window of a world too large to hold as an image the view shows (ui/render/world_window): the density view's
// cells per pixel at each zoom, the window's place and size on odd worlds, at their edges and off them, and the
// frame placed in the world (the renderer's and the inspector's arithmetic). Expected values are worked out by
// hand from the view: the centre, the zoom and the viewport give the visible cells.
#include <gtest/gtest.h>

#include "render/pixel_probe.hpp"
#include "render/world_window.hpp"

namespace ks::ui {
namespace {

ViewState view_at(double zoom, double cx, double cy) {
  ViewState v;
  v.zoom = float(zoom);
  v.center_x = float(cx);
  v.center_y = float(cy);
  return v;
}

TEST(WorldWindow, CellsPerPixelAreTheWholeCellsOneScreenPixelSpans) {
  EXPECT_EQ(cells_per_pixel_at(256), 1);
  EXPECT_EQ(cells_per_pixel_at(8), 1);
  EXPECT_EQ(cells_per_pixel_at(1), 1);   // one cell per pixel: single cells
  EXPECT_EQ(cells_per_pixel_at(0.99), 1);
  EXPECT_EQ(cells_per_pixel_at(0.5), 2);
  EXPECT_EQ(cells_per_pixel_at(0.4), 2);  // 2.5 cells a screen pixel: 2 a pixel, never coarser than the screen
  EXPECT_EQ(cells_per_pixel_at(double(1.0f / 3.0f)), 3);  // a float zoom of 1/3 is still 3
  EXPECT_EQ(cells_per_pixel_at(kMinZoom), 128);
}

TEST(WorldWindow, ZoomedInItIsTheVisibleCellsOneAPixel) {
  // 8 screen pixels a cell on 800x600: 100 x 75 cells around (100.5, 50.25) of a 40000x30000 world, that is
  // [50.5, 150.5) x [12.75, 87.75): whole cells 50..150 and 12..87.
  const sim::DensityWindow w = world_window(view_at(8, 100.5, 50.25), {800, 600}, {40000, 30000});
  EXPECT_EQ(w.cells_per_pixel, 1);
  EXPECT_EQ(w.x0, 50);
  EXPECT_EQ(w.width, 101);
  EXPECT_EQ(w.y0, 12);
  EXPECT_EQ(w.height, 76);
}

TEST(WorldWindow, ZoomedOutItStartsOnWholePixelsAndCoversEveryVisibleCell) {
  // 1/3 zoom: 3 cells a pixel. 300 screen pixels show 900 cells around 1000.3: [550.3, 1450.3), cells 550..1450;
  // the window starts at 549 (a multiple of 3) and needs ceil((1451 - 549) / 3) = 301 pixels.
  const sim::DensityWindow w = world_window(view_at(1.0 / 3.0, 1000.3, 700), {300, 30}, {32769, 32768});
  EXPECT_EQ(w.cells_per_pixel, 3);
  EXPECT_EQ(w.x0, 549);
  EXPECT_EQ(w.width, 301);
  // 30 screen rows: 90 cells around 700, [655, 745): 654 is the multiple of 3 below 655; ceil((745 - 654) / 3) = 31.
  EXPECT_EQ(w.y0, 654);
  EXPECT_EQ(w.height, 31);
}

TEST(WorldWindow, TheWholeOddWorldFittedEndsInItsLastPartialPixel) {
  // 32769 x 32768 cells (one more than 2^30, and not a multiple of 64 wide) fitted into 1024 x 700: zoom 700 / 32768,
  // 46.8 cells a screen pixel, so 46 a pixel; the whole world is visible: ceil(32769 / 46) = 713 and
  // ceil(32768 / 46) = 713 pixels (712 x 46 = 32752, so the last one holds 17 and 16 cells).
  const ViewState v = fit(ViewState{}, {32769, 32768}, {1024, 700});
  const sim::DensityWindow w = world_window(v, {1024, 700}, {32769, 32768});
  EXPECT_EQ(w.cells_per_pixel, 46);
  EXPECT_EQ(w.x0, 0);
  EXPECT_EQ(w.y0, 0);
  EXPECT_EQ(w.width, 713);
  EXPECT_EQ(w.height, 713);
}

TEST(WorldWindow, AtTheWorldsEdgeItStopsAtTheLastCell) {
  // Quarter zoom (4 cells a pixel) near the right edge of a 32769-wide world: 400 screen pixels show
  // [31900, 33500); the world ends at 32769, so 869 cells, 218 pixels, the last holding cell 32768 alone.
  const sim::DensityWindow w = world_window(view_at(0.25, 32700, 100), {400, 40}, {32769, 32768});
  EXPECT_EQ(w.x0, 31900);
  EXPECT_EQ(w.width, 218);
  EXPECT_LE(w.x0 + (w.width - 1) * w.cells_per_pixel, 32768);
  EXPECT_GT(w.x0 + w.width * w.cells_per_pixel, 32768);
}

TEST(WorldWindow, AViewOffTheWorldGetsItsNearestPixel) {
  const sim::DensityWindow left = world_window(view_at(1, -5000, 50), {100, 100}, {40000, 30000});
  EXPECT_EQ(left.x0, 0);
  EXPECT_EQ(left.width, 1);
  EXPECT_EQ(left.y0, 0);
  EXPECT_EQ(left.height, 100);
  const sim::DensityWindow below = world_window(view_at(0.5, 100, 90000), {100, 100}, {40000, 30000});
  EXPECT_EQ(below.cells_per_pixel, 2);
  EXPECT_EQ(below.y0, 29998);  // cell 29999 on its pixel's grid of 2
  EXPECT_EQ(below.height, 1);
  EXPECT_NO_THROW(sim::check_density_window(below));
}

TEST(WorldWindow, TheInspectorReadsThePixelWhoseSquareHoldsTheCell) {
  // A 4x3 window of 10 cells a pixel starting at cell (1000, 2000) of a 40000x30000 world, at 2 screen pixels per
  // cell: the cell under the cursor is in world coordinates, its value the pixel whose square holds it.
  Image window(4, 3, 1, ElemType::F32);
  window.row<float>(1)[2] = 127.5f;  // cells 1020..1029 x 2010..2019
  DisplayFrame frame;
  frame.output = &window;
  frame.output_placement = OutputPlacement{1000, 2000, 10, 40000, 30000};
  EXPECT_EQ(shown_image_shape(frame).width, 40000);
  EXPECT_EQ(shown_image_shape(frame).height, 30000);
  const ViewState v = view_at(2, 1025, 2015);  // cell (1025, 2015) at the centre of 200x100
  const PixelProbe at = probe_pixel(frame, v, {200, 100}, {100.5, 50.5});
  ASSERT_TRUE(at.inside);
  EXPECT_EQ(at.x, 1025);
  EXPECT_EQ(at.y, 2015);
  ASSERT_TRUE(at.has_output);
  EXPECT_EQ(at.output[0], 127.5);
  // A cell of the world outside the window: on the image, but no output value there.
  const PixelProbe outside = probe_pixel(frame, view_at(2, 5000, 2015), {200, 100}, {100.5, 50.5});
  EXPECT_TRUE(outside.inside);
  EXPECT_FALSE(outside.has_output);
}

}  // namespace
}  // namespace ks::ui
