// `kernelscope --screenshot` of live simulations through EGL: a placed glider appears on screen and has moved one
// cell diagonally after 4 steps; heat shows through its colormap; bad simulation requests exit with 2 and write
// nothing.
#ifdef KS_HAVE_SCREENSHOT
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gui/screenshot.hpp"
#include "io/image_io.hpp"
#include "render_test_support.hpp"
#include "screenshot_run.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

using Pixels = std::set<std::pair<int, int>>;

// screenshot_main over an argument list (screenshot_run.hpp).
const auto run = &test::run_screenshot;

// White pixels below the colormap legend (drawn at the top left over the image, about 70 pixels high).
Pixels white_pixels(const Image& frame) {
  Pixels p;
  for (int y = 120; y < frame.height(); ++y)
    for (int x = 0; x < frame.width(); ++x) {
      const test::Rgb c = test::rgb_at(frame, x, y);
      if (c[0] > 200 && c[1] > 200 && c[2] > 200) p.insert({x, y});
    }
  return p;
}

Image life_frame(const test::TempDir& dir, const std::string& steps) {
  const auto out = dir / ("life" + steps + ".png");
  // The default grid is 512x512: in a 512x512 frame without panels one cell is one pixel.
  EXPECT_EQ(run({"--screenshot", out.string(), "--kernel", "life", "--pattern", "glider", "--steps", steps, "--size",
                 "512x512", "--no-panels", "--backend", "cpu"}),
            0);
  return convert_channels(load_image(out), 4);
}

TEST(ScreenshotSim, APlacedGliderIsOnScreenAndMovesOneCellDiagonallyInFourSteps) {
  test::TempDir dir;
  const Pixels g0 = white_pixels(life_frame(dir, "0"));
  const Pixels g4 = white_pixels(life_frame(dir, "4"));
  ASSERT_EQ(g0.size(), 5u) << "the glider's five cells, white on black";
  ASSERT_EQ(g4.size(), 5u);
  Pixels moved;
  for (auto [x, y] : g0) moved.insert({x + 1, y + 1});
  EXPECT_EQ(g4, moved);
  // Near the centre of the grid, where patterns are placed.
  EXPECT_NEAR(g0.begin()->first, 256, 4);
  EXPECT_NEAR(g0.begin()->second, 256, 4);
}

TEST(ScreenshotSim, HeatWithThePanelsIsColouredAndShowsItsControls) {
  test::TempDir dir;
  const auto out = dir / "heat.png";
  ASSERT_EQ(run({"--screenshot", out.string(), "--kernel", "heat", "--steps", "50", "--size", "1000x600",
                 "--backend", "cpu"}),
            0);
  const Image frame = convert_channels(load_image(out), 4);
  EXPECT_EQ(frame.width(), 1000);
  // Magma: hot spots glow orange-yellow over the black background after diffusing a little.
  EXPECT_GT(test::distinct_colours(frame), 100u);
}

// A simulation has no separate input: the split shows its grid alone, with no "input" and "output" labels over
// it (issue 23: they were drawn over Life and Gray-Scott).
TEST(ScreenshotSim, TheSplitLabelsNothingWhereThereIsNoInput) {
  test::TempDir dir;
  for (const char* kernel : {"life", "grayscott"}) {
    auto shot = [&](const std::vector<std::string>& more) {
      const auto out = dir / (std::string(kernel) + std::to_string(more.size()) + ".png");
      std::vector<std::string> args{"--screenshot", out.string(), "--kernel", kernel, "--steps", "0", "--size",
                                    "480x320", "--no-panels", "--backend", "cpu"};
      args.insert(args.end(), more.begin(), more.end());
      EXPECT_EQ(run(args), 0);
      return load_image(out);
    };
    const Image plain = shot({}), split = shot({"--split", "0.5"});
    ASSERT_EQ(plain.shape(), split.shape());
    EXPECT_TRUE(std::equal(plain.data(), plain.data() + plain.byte_size(), split.data()))
        << kernel << ": the split changed the picture";
  }
}

TEST(ScreenshotSim, BadSimulationRequestsExitWithTwoAndWriteNothing) {
  test::TempDir dir;
  const auto out = dir / "bad.png";
  EXPECT_EQ(run({"--screenshot", out.string(), "--kernel", "heat", "--param", "dt=1", "--backend", "cpu"}), 2);
  EXPECT_EQ(run({"--screenshot", out.string(), "--kernel", "box", "--steps", "3", "--backend", "cpu"}), 2);
  EXPECT_EQ(run({"--screenshot", out.string(), "--kernel", "heat", "--pattern", "glider", "--backend", "cpu"}), 2);
  EXPECT_EQ(run({"--screenshot", out.string(), "--kernel", "life", "--pattern", "no-such", "--backend", "cpu"}), 2);
  EXPECT_EQ(run({"--screenshot", out.string(), "--kernel", "life", "--grid", "12", "--backend", "cpu"}), 2);
  EXPECT_EQ(run({"--screenshot", out.string(), "--kernel", "box", "--grid", "4x4", "--backend", "cpu"}), 2);
  EXPECT_EQ(run({"--screenshot", out.string(), "--kernel", "life", "--grid", "0x4", "--backend", "cpu"}), 2);
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace ks
#endif
