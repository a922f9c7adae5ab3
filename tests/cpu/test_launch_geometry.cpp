// The launch geometry the overlay draws and the kernels launch with: which block and thread compute a pixel,
// partial blocks and their idle threads on awkward sizes, the shared tile's halo and the window at the
// borders.
#include <gtest/gtest.h>

#include "core/launch_geometry.hpp"
#include "registry/registry.hpp"
#include "session/launch/launch_words.hpp"
#include "sim/sim_geometry.hpp"
#include "stencil/stencil_geometry.hpp"

namespace ks {
namespace {

TEST(LaunchGeometry, OnePixelImageIsOneBlockOfMostlyIdleThreads) {
  const LaunchGeometry g = window_launch(1, 1, {32, 8}, 1, 1, false);
  EXPECT_EQ(g.grid_x(), 1);
  EXPECT_EQ(g.grid_y(), 1);
  EXPECT_EQ(g.threads(), 256);
  EXPECT_EQ(idle_threads(g, 0, 0), 255);
  EXPECT_EQ(idle_threads(g), 255);
  EXPECT_EQ(thread_of_pixel(g, 0, 0), (PixelThread{0, 0, 0, 0}));
}

TEST(LaunchGeometry, OddSizeHasPartialBlocksAtTheRightAndBottom) {
  // 1023 x 7 with 32 x 8 blocks: 32 columns of blocks (the last 31 pixels wide), one row (7 of its 8 rows
  // used).
  const LaunchGeometry g = window_launch(1023, 7, {32, 8}, 0, 0, false);
  EXPECT_EQ(g.grid_x(), 32);
  EXPECT_EQ(g.grid_y(), 1);
  EXPECT_EQ(g.threads(), 32LL * 256);
  EXPECT_EQ(idle_threads(g, 0, 0), 32);  // its eighth row
  EXPECT_EQ(idle_threads(g, 31, 0), 256 - 31 * 7);
  EXPECT_EQ(idle_threads(g), 32LL * 256 - 1023 * 7);
  EXPECT_EQ(thread_of_pixel(g, 1022, 6), (PixelThread{31, 0, 30, 6}));
  EXPECT_EQ(block_rect(g, 31, 0),
            (PixelRect{992, 0, 1024, 8}));  // reaches past the image: idle threads there
}

TEST(LaunchGeometry, ExactTilingHasNoIdleThreads) {
  const LaunchGeometry g = window_launch(64, 32, {16, 16}, 1, 1, false);
  EXPECT_EQ(g.blocks(), 8);
  EXPECT_EQ(idle_threads(g), 0);
  EXPECT_EQ(thread_of_pixel(g, 37, 12), (PixelThread{2, 0, 5, 12}));
  EXPECT_EQ(thread_of_pixel(g, 63, 31), (PixelThread{3, 1, 15, 15}));
}

TEST(LaunchGeometry, SharedTileAndWindowReachPastTheBorder) {
  const LaunchGeometry g = window_launch(100, 50, {16, 16}, 2, 2, true);
  EXPECT_EQ(g.tile_width(), 20);
  EXPECT_EQ(g.tile_height(), 20);
  EXPECT_EQ(tile_rect(g, 0, 0), (PixelRect{-2, -2, 18, 18}));
  EXPECT_EQ(tile_rect(g, 6, 3), (PixelRect{94, 46, 114, 66}));  // the last block: its halo past both edges
  EXPECT_EQ(input_window(g, 0, 0), (PixelRect{-2, -2, 3, 3}));
  EXPECT_EQ(input_window(g, 99, 49), (PixelRect{97, 47, 102, 52}));
  EXPECT_EQ(input_window(g, 10, 10).width(), 5);
}

TEST(LaunchGeometry, StripThreadsOwnFourCellsOfSixteenRows) {
  const SimGeometry s = sim_geometry("heat", "strip", 1024, 512, {32, 8});
  ASSERT_TRUE(s.geometry);
  const LaunchGeometry& g = *s.geometry;
  EXPECT_EQ(g.grid_x(), 8);  // 1024 / 4 cells = 256 threads = 8 blocks of 32
  EXPECT_EQ(g.grid_y(), 4);  // 512 / 16 rows = 32 threads = 4 blocks of 8
  EXPECT_EQ(thread_of_pixel(g, 130, 37), (PixelThread{1, 0, 0, 2}));
  EXPECT_EQ(block_rect(g, 1, 0), (PixelRect{128, 0, 256, 128}));
  EXPECT_EQ(idle_threads(g), 0);
  EXPECT_TRUE(g.cross);
  EXPECT_EQ(app::describe_pixel(g, 130, 37)[3], "reads (130, 37) and its 4 neighbours: x 129..131, y 36..38");
  // 1022 cells wide: the last thread still owns cells 1020..1021, so none is idle. 1020 wide: the last thread
  // of each row (x0 = 1020) has no cell: one per thread row, 8 rows per block, 4 blocks down.
  EXPECT_EQ(idle_threads(*sim_geometry("heat", "strip", 1022, 512, {32, 8}).geometry), 0);
  EXPECT_EQ(idle_threads(*sim_geometry("heat", "strip", 1020, 512, {32, 8}).geometry), 8 * 4);
}

TEST(LaunchGeometry, OnlyVariantsItCanDrawExactlyHaveOne) {
  const StencilPlan plan = make_stencil_plan("box", KernelRegistry::builtin().get("box").default_params());
  EXPECT_TRUE(stencil_geometry(plan, "naive", 64, 64, {32, 8}).geometry);
  EXPECT_TRUE(stencil_geometry(plan, "tiled", 64, 64, {32, 8}).geometry->shared_tile);
  const StencilGeometry separable = stencil_geometry(plan, "separable", 64, 64, {32, 8});
  EXPECT_FALSE(separable.geometry);
  EXPECT_NE(separable.why_not.find("strips"), std::string::npos);
  EXPECT_FALSE(sim_geometry("life", "bitpacked", 64, 64, {32, 8}).geometry);
  EXPECT_TRUE(sim_geometry("life", "tiled", 64, 64, {32, 8}).geometry->shared_tile);
}

TEST(LaunchWords, HoverTextNamesBlockThreadAndWindow) {
  const LaunchGeometry g = window_launch(100, 50, {16, 16}, 2, 2, true);
  const std::vector<std::string> lines = app::describe_pixel(g, 37, 12);
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines[0], "pixel (37, 12)");
  EXPECT_EQ(lines[1], "blockIdx (2, 0)  threadIdx (5, 12)");
  EXPECT_EQ(lines[2], "reads 5 x 5 pixels: x 35..39, y 10..14");
  EXPECT_NE(lines[3].find("shared tile of 20 x 20"), std::string::npos);
  const std::vector<std::string> corner = app::describe_pixel(g, 99, 49);
  bool border = false, idle = false;
  for (const std::string& l : corner) {
    border |= l.find("border rule") != std::string::npos;
    idle |= l.find("idle threads") != std::string::npos;
  }
  EXPECT_TRUE(border);
  EXPECT_TRUE(idle);
}

}  // namespace
}  // namespace ks
