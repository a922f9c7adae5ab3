// The launch overlay in `kernelscope --screenshot` (no GPU needed: the CPU backend with a device model):
// block outlines on the block boundaries, the idle threads of the partial blocks shaded past the image's
// edge, and the probed pixel's block, shared tile and window.
#ifdef KS_HAVE_SCREENSHOT
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "gui/screenshot.hpp"
#include "io/image_io.hpp"
#include "render_test_support.hpp"
#include "screenshot_run.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

// screenshot_main over an argument list (screenshot_run.hpp).
const auto run = &test::run_screenshot;

bool yellowish(test::Rgb c) {
  return c[0] > 120 && c[1] > 100 && c[2] < 90;
}
bool reddish(test::Rgb c) {
  return c[0] > c[1] + 40 && c[0] > c[2] + 40;
}
bool whitish(test::Rgb c) {
  return c[0] > 200 && c[1] > 200 && c[2] > 200;
}
bool greenish(test::Rgb c) {
  return c[1] > 180 && c[0] < 150 && c[2] < 150;
}

// Whether some pixel of [x0, x1] x [y0, y1] passes: lines are antialiased over a pixel or two.
bool any_in(const Image& frame, int x0, int x1, int y0, int y1, const std::function<bool(test::Rgb)>& is) {
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x)
      if (is(test::rgb_at(frame, x, y))) return true;
  return false;
}

// The 1024x768 sample at zoom 1 in a 1280x900 frame: image pixel (x, y) is screen (x + 128, y + 66). Blocks
// of 48 x 16: 22 columns, the last covering x 1008..1055, so 32 columns of threads past the right edge are
// idle. The dark rectangle x 780..939, y 60..199 is flat (20, 20, 20) under the box filter.
TEST(ScreenshotLaunch, OutlinesOnBlockBoundariesAndIdleThreadsShaded) {
  test::TempDir dir;
  const auto out = dir / "launch.png";
  ASSERT_EQ(run({"--screenshot", out.string(), "--backend", "cpu", "--kernel", "box", "--param", "radius=2",
                 "--size", "1280x900", "--no-panels", "--zoom", "1", "--launch-overlay", "--device-model",
                 "h100", "--block", "48x16"}),
            0);
  const Image frame = convert_channels(load_image(out), 4);
  // Block boundary x = 816 (17 x 48) inside the dark rectangle: an outline; 6 pixels right of it: none.
  EXPECT_TRUE(any_in(frame, 816 + 128, 816 + 128, 135 + 66, 135 + 66, yellowish));
  EXPECT_TRUE(test::rgb_near(frame, 822 + 128, 135 + 66, {20, 20, 20}));
  // Block boundary y = 128 (8 x 16): an outline across the rectangle.
  EXPECT_TRUE(any_in(frame, 850 + 128, 850 + 128, 128 + 66, 128 + 66, yellowish));
  EXPECT_TRUE(test::rgb_near(frame, 850 + 128, 133 + 66, {20, 20, 20}));
  // Past the right edge (x 1024..1055), inside the grid: idle threads, shaded red.
  EXPECT_TRUE(reddish(test::rgb_at(frame, 1040 + 128, 400 + 66)));
  // Past the grid (x >= 1056): nothing.
  EXPECT_FALSE(reddish(test::rgb_at(frame, 1070 + 128, 400 + 66)));
}

// --probe 860,130 at zoom 1 centres that pixel (screen x = 640 + (x - 860.5), y = 450 + (y - 130.5)). Its
// block (17, 8) covers x 816..863, y 128..143; the tiled variant's tile reaches 2 further; the window is x
// 858..862.
TEST(ScreenshotLaunch, ProbedPixelShowsItsBlockAndWindow) {
  test::TempDir dir;
  const auto out = dir / "probe.png";
  ASSERT_EQ(run({"--screenshot",
                 out.string(),
                 "--backend",
                 "cpu",
                 "--kernel",
                 "box",
                 "--param",
                 "radius=2",
                 "--size",
                 "1280x900",
                 "--no-panels",
                 "--zoom",
                 "1",
                 "--launch-overlay",
                 "--device-model",
                 "h100",
                 "--block",
                 "48x16",
                 "--probe",
                 "860,130"}),
            0);
  const Image frame = convert_channels(load_image(out), 4);
  auto sx = [](int x) { return int(640 + (x - 860.5)); };
  auto sy = [](int y) { return int(450 + (y - 130.5)); };
  EXPECT_TRUE(any_in(frame, sx(816) - 2, sx(816) + 1, sy(136), sy(136), whitish)) << "the block's left edge";
  EXPECT_TRUE(any_in(frame, sx(858) - 2, sx(858) + 1, sy(130), sy(130), greenish))
      << "the window's left edge";
}

// The Launch section on the CPU backend with a device model shows the occupancy bar (ImGui's histogram
// colour, (230, 179, 0) in the dark style) in the sidebar; without a model there is none.
TEST(ScreenshotLaunch, LaunchSectionShowsAModelsOccupancyWithoutAGpu) {
  test::TempDir dir;
  auto bar = [](test::Rgb c) { return c[0] > 215 && c[1] > 165 && c[1] < 195 && c[2] < 20; };
  const auto with_model = dir / "model.png";
  ASSERT_EQ(run({"--screenshot", with_model.string(), "--backend", "cpu", "--device-model", "t4", "--block",
                 "16x16", "--sections", "launch", "--size", "1280x800"}),
            0);
  EXPECT_TRUE(any_in(convert_channels(load_image(with_model), 4), 900, 1279, 0, 400, bar));
  const auto without = dir / "none.png";
  ASSERT_EQ(run({"--screenshot", without.string(), "--backend", "cpu", "--sections", "launch", "--size",
                 "1280x800"}),
            0);
  EXPECT_FALSE(any_in(convert_channels(load_image(without), 4), 900, 1279, 0, 400, bar));
}

TEST(ScreenshotLaunch, BadOptionsAreUsageErrors) {
  test::TempDir dir;
  const auto out = dir / "bad.png";
  EXPECT_EQ(run({"--screenshot", out.string(), "--backend", "cpu", "--device-model", "v100", "--no-panels"}),
            2);
  EXPECT_EQ(run({"--screenshot", out.string(), "--backend", "cpu", "--probe", "12", "--no-panels"}), 2);
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace ks
#endif
