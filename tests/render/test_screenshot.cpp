// `kernelscope --screenshot` end to end, through EGL (Mesa in CI, NVIDIA's EGL with interop on the GPU machine):
// the file has the asked size, is not blank, shows the sample's known regions as the kernel leaves them, splits
// input from output; bad requests fail with exit code 2 (runtime failures with 1) and leave no file behind.
#ifdef KS_HAVE_SCREENSHOT
#include <cstdlib>
#include <filesystem>
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

// screenshot_main over an argument list (screenshot_run.hpp).
const auto run = &test::run_screenshot;

// The sample test card (tools/make_sample.py) at 1:1: a 1024x768 frame without panels fits it exactly.
// Regions: a white disc around (640, 150) of radius 70 ((250, 250, 250)), a dark rectangle x 780..939, y 60..199
// ((20, 20, 20)), the zone plate left of x = 512.
TEST(Screenshot, SampleWithABoxFilterShowsTheTestCardsRegions) {
  test::TempDir dir;
  const auto out = dir / "box.png";
  ASSERT_EQ(run({"--screenshot", out.string(), "--kernel", "box", "--param", "radius=2", "--size", "1024x768",
                 "--no-panels"}),
            0);
  const Image png = load_image(out);
  EXPECT_EQ(png.width(), 1024);
  EXPECT_EQ(png.height(), 768);
  EXPECT_EQ(png.channels(), 3);
  const Image frame = convert_channels(png, 4);
  EXPECT_GT(test::distinct_colours(frame), 1000u);
  // Inside flat regions a box filter changes nothing.
  EXPECT_TRUE(test::rgb_near(frame, 640, 150, {250, 250, 250}));
  EXPECT_TRUE(test::rgb_near(frame, 860, 130, {20, 20, 20}));
  // Across the rectangle's left edge (x = 780) a 5-wide box blends the gradient into the dark: strictly between.
  const test::Rgb edge = test::rgb_at(frame, 780, 130);
  const test::Rgb outside = test::rgb_at(frame, 770, 130);
  EXPECT_GT(edge[0] + edge[1] + edge[2], 60);
  EXPECT_LT(edge[0] + edge[1] + edge[2], outside[0] + outside[1] + outside[2]);
}

TEST(Screenshot, SplitShowsTheInputLeftAndTheOutputRight) {
  test::TempDir dir;
  const auto out = dir / "split.png";
  // Sobel magnitude: flat regions become 0. The split at 0.7 (x = 716.8) runs between the disc and the rectangle.
  ASSERT_EQ(run({"--screenshot", out.string(), "--kernel", "sobel", "--size", "1024x768", "--no-panels", "--split",
                 "0.7"}),
            0);
  const Image frame = convert_channels(load_image(out), 4);
  EXPECT_TRUE(test::rgb_near(frame, 640, 150, {250, 250, 250})) << "left of the split: the input";
  EXPECT_TRUE(test::rgb_near(frame, 860, 130, {0, 0, 0})) << "right of the split: the output";
  // The same pixel shows the output when the split moves left of it.
  ASSERT_EQ(run({"--screenshot", out.string(), "--kernel", "sobel", "--size", "1024x768", "--no-panels", "--split",
                 "0.5"}),
            0);
  EXPECT_TRUE(test::rgb_near(convert_channels(load_image(out), 4), 640, 150, {0, 0, 0}));
}

// The column where the split line (two pixels of (217, 217, 217), full height) stands, or -1 when none does.
int split_line_x(const Image& frame) {
  int best = -1, best_rows = 0;
  for (int x = 0; x < frame.width(); ++x) {
    int rows = 0;
    for (int y = 0; y < frame.height(); ++y) {
      const test::Rgb c = test::rgb_at(frame, x, y);
      rows += std::abs(c[0] - 217) <= 1 && std::abs(c[1] - 217) <= 1 && std::abs(c[2] - 217) <= 1;
    }
    if (rows > best_rows) best = x, best_rows = rows;
  }
  return best_rows > frame.height() * 8 / 10 ? best : -1;
}

// With the panels shown, the split's fraction is one of the free area beside the sidebar (issue 23: at 0.8 of
// the whole width the line stood behind the sidebar, and the Gaussian's blur showed nowhere).
TEST(Screenshot, TheSplitStaysBesideTheSidebar) {
  test::TempDir dir;
  auto shot = [&](const std::string& split) {
    const auto out = dir / ("split-" + split + ".png");
    EXPECT_EQ(run({"--screenshot", out.string(), "--kernel", "gaussian", "--param", "sigma=3", "--size", "1024x768",
                   "--split", split}),
              0);
    return convert_channels(load_image(out), 4);
  };
  const Image at_08 = shot("0.8"), at_04 = shot("0.4"), input = shot("1"), output = shot("0");
  const int x = split_line_x(at_08);
  ASSERT_GT(x, 0) << "the line at 0.8 is not in sight";
  const int half_way = split_line_x(at_04);
  ASSERT_GT(half_way, 0);
  EXPECT_NEAR(x, 2 * half_way, 2) << "0.8 and 0.4 of the same free area";
  // Right of the line, the blur: the output's pixels, not the input's.
  int blurred = 0;
  for (int y = 200; y < 600; ++y)
    for (int dx = 4; dx < 40; ++dx) {
      ASSERT_EQ(test::rgb_at(at_08, x + dx, y), test::rgb_at(output, x + dx, y)) << x + dx << "," << y;
      blurred += test::rgb_at(output, x + dx, y) != test::rgb_at(input, x + dx, y);
    }
  EXPECT_GT(blurred, 100) << "right of the line the Gaussian changed pixels";
}

TEST(Screenshot, PanelsAreDrawnBesideTheImage) {
  test::TempDir dir;
  const auto with = dir / "with.png", without = dir / "without.png";
  ASSERT_EQ(run({"--screenshot", with.string(), "--size", "1280x800"}), 0);
  ASSERT_EQ(run({"--screenshot", without.string(), "--size", "1280x800", "--no-panels"}), 0);
  const Image a = convert_channels(load_image(with), 4), b = convert_channels(load_image(without), 4);
  EXPECT_EQ(a.width(), 1280);
  EXPECT_EQ(a.height(), 800);
  EXPECT_GT(test::distinct_colours(a), 1000u);
  // The right edge holds the sidebar with panels and the image (or background) without; they differ a lot there.
  int differ = 0;
  for (int y = 0; y < 800; y += 4)
    for (int x = 1280 - 300; x < 1280; x += 4) differ += test::rgb_at(a, x, y) != test::rgb_at(b, x, y);
  EXPECT_GT(differ, 2000);
}

TEST(Screenshot, OddSizesAndASmallFile) {
  test::TempDir dir;
  const Image in = test::random_image(33, 7, 1, ElemType::U8, 51);
  save_image(in, dir / "in.png");
  const auto out = dir / "odd.png";
  ASSERT_EQ(run({"--screenshot", out.string(), "--size", "333x77", "--kernel", "median", (dir / "in.png").string()}),
            0);
  const Image png = load_image(out);
  EXPECT_EQ(png.width(), 333);
  EXPECT_EQ(png.height(), 77);
}

TEST(Screenshot, BadRequestsExitWithTwoAndWriteNothing) {
  test::TempDir dir;
  const std::string out = (dir / "bad.png").string();
  EXPECT_EQ(run({"--screenshot", out, "--kernel", "no-such-kernel"}), 2);
  EXPECT_EQ(run({"--screenshot", out, "--kernel", "box", "--param", "radius=-4"}), 2);
  EXPECT_EQ(run({"--screenshot", out, "--param", "radius"}), 2);
  EXPECT_EQ(run({"--screenshot", out, "--size", "0x10"}), 2);
  EXPECT_EQ(run({"--screenshot", out, "--size", "big"}), 2);
  EXPECT_EQ(run({"--screenshot", out, "--split", "1.5"}), 2);
  EXPECT_EQ(run({"--screenshot", out, "--frobnicate"}), 2);
  EXPECT_EQ(run({"--screenshot", (dir / "bad.xyz").string()}), 2);
  EXPECT_EQ(run({"--kernel", "box"}), 2) << "--screenshot OUT is required";
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(Screenshot, RuntimeFailuresExitWithOneAndKeepAnOldFile) {
  test::TempDir dir;
  const auto out = dir / "keep.png";
  save_image(test::random_image(4, 4, 3, ElemType::U8, 52), out);
  const auto before = std::filesystem::file_size(out);
  EXPECT_EQ(run({"--screenshot", out.string(), (dir / "missing.png").string()}), 1);
  EXPECT_EQ(std::filesystem::file_size(out), before);
  EXPECT_EQ(load_image(out).width(), 4);
}

TEST(Screenshot, WantsScreenshotSpotsTheOption) {
  const char* yes[] = {"kernelscope", "img.png", "--screenshot", "out.png"};
  const char* eq[] = {"kernelscope", "--screenshot=out.png"};
  const char* no[] = {"kernelscope", "img.png"};
  EXPECT_TRUE(app::wants_screenshot(4, const_cast<char**>(yes)));
  EXPECT_TRUE(app::wants_screenshot(2, const_cast<char**>(eq)));
  EXPECT_FALSE(app::wants_screenshot(2, const_cast<char**>(no)));
}

// Presenter view's appearance headless: a text size for a projector and the high-contrast theme. The sidebar
// widens with the text (380 points at 13 -> 818 at 28, capped at 60% of the frame) and its background is black;
// its accents (the radio button, sliders) are yellow. A size outside 13..32 is a usage error and writes nothing.
TEST(Screenshot, PresenterTextSizeAndHighContrast) {
  test::TempDir dir;
  const auto normal = dir / "normal.png", large = dir / "large.png", bad = dir / "bad.png";
  ASSERT_EQ(run({"--screenshot", normal.string(), "--size", "1200x700"}), 0);
  ASSERT_EQ(run({"--screenshot", large.string(), "--size", "1200x700", "--text-size", "28", "--high-contrast"}), 0);
  const Image a = convert_channels(load_image(normal), 4), b = convert_channels(load_image(large), 4);
  // Where the default sidebar starts (1200 - 380 = 820) the image still shows in the default frame; at 28
  // points the sidebar covers 60% of the width (from x = 480), black behind its widgets.
  int black = 0, yellow = 0;
  for (int y = 0; y < b.height(); ++y)
    for (int x = 480; x < b.width(); ++x) {
      const test::Rgb c = test::rgb_at(b, x, y);
      if (c[0] <= 4 && c[1] <= 4 && c[2] <= 4) ++black;  // (the sidebar is 92% opaque over the dark clear)
      if (c[0] > 200 && c[1] > 170 && c[2] < 60) ++yellow;
    }
  EXPECT_GT(black, 720 * 700 / 4) << "a black panel background";
  EXPECT_GT(yellow, 50) << "yellow accents";
  int black_default = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 480; x < a.width(); ++x) {
      const test::Rgb c = test::rgb_at(a, x, y);
      if (c[0] <= 4 && c[1] <= 4 && c[2] <= 4) ++black_default;
    }
  EXPECT_LT(black_default, black / 10) << "the default theme is not black";
  EXPECT_EQ(run({"--screenshot", bad.string(), "--text-size", "40"}), 2);
  EXPECT_FALSE(std::filesystem::exists(bad));
}

}  // namespace
}  // namespace ks
#endif
