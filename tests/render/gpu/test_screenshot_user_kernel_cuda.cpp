// `kernelscope --screenshot --kernel-file` on the GPU (label gpu; skips without a CUDA device): the smoothing
// template (assets/kernels/smooth3x3.cu, a 3x3 mean on f32) run in the worker process in place of box, checked
// against box:naive at radius 2 (a 5x5 mean), and --show-difference: the frame is |yours - box| as the heatmap,
// black where both means agree (the test card's flat regions) and coloured where a 3x3 and a 5x5 mean differ (its
// zone plate), where the result itself shows the card's white. The frame is drawn only once the check is back.
#ifdef KS_HAVE_SCREENSHOT
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "gui/screenshot.hpp"
#include "io/image_io.hpp"
#include "render_test_support.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

app::ScreenshotRequest smoothing_against_box(const test::TempDir& dir, bool show_difference) {
  app::ScreenshotRequest r;
  r.kernel_file = std::filesystem::path(KS_SOURCE_DIR) / "assets/kernels/smooth3x3.cu";
  r.compare = "box:naive";
  r.params = {"radius=2"};
  r.show_difference = show_difference;
  r.backend = "cuda";
  r.width = 1024;  // the sample at 1:1
  r.height = 768;
  r.panels = false;
  r.out = dir / (show_difference ? "difference.png" : "result.png");
  return r;
}

int brightest_channel(const test::Rgb& c) { return std::max({c[0], c[1], c[2]}); }

TEST(ScreenshotUserKernelCuda, ShowDifferenceDrawsTheHeatmapInPlaceOfTheResult) {
  KS_REQUIRE_GPU();
  ::setenv("KS_WORKER", KS_CLI_PATH, 1);  // the CLI of this build, as the app finds the one beside it
  test::TempDir dir;
  const app::ScreenshotResult shown = app::take_screenshot(smoothing_against_box(dir, false));
  const Image result = convert_channels(shown.frame, 4);
  // The smoothing of the white disc around (640, 150) is the disc's white (whatever range the f32 result shows in).
  const test::Rgb disc = test::rgb_at(result, 640, 150);
  EXPECT_GE(std::min({disc[0], disc[1], disc[2]}), 200) << disc[0] << " " << disc[1] << " " << disc[2];

  const app::ScreenshotResult diff = app::take_screenshot(smoothing_against_box(dir, true));
  const Image heat = convert_channels(diff.frame, 4);
  EXPECT_TRUE(test::images_match(convert_channels(load_image(dir / "difference.png"), 4), heat)) << "the file is the frame";
  // Flat regions: a 3x3 and a 5x5 mean agree (to float rounding: the heatmap's lowest levels), so near black where
  // the input and the result show the disc's white and the rectangle's dark grey.
  EXPECT_LE(brightest_channel(test::rgb_at(heat, 640, 150)), 24) << "the disc";
  EXPECT_LE(brightest_channel(test::rgb_at(heat, 860, 130)), 24) << "the rectangle";
  // The zone plate (x < 512): rings a 3x3 and a 5x5 mean blur differently; many pixels light up, in the heatmap's
  // colours (not grays, as the input and result there are).
  int lit = 0, coloured = 0;
  for (int y = 100; y < 700; y += 4)
    for (int x = 20; x < 500; x += 4) {
      const test::Rgb c = test::rgb_at(heat, x, y);
      if (brightest_channel(c) > 60) ++lit;
      if (std::max({c[0], c[1], c[2]}) - std::min({c[0], c[1], c[2]}) > 40) ++coloured;
    }
  EXPECT_GT(lit, 1000) << "of 18000 sampled pixels of the zone plate";
  EXPECT_GT(coloured, 1000);
}

// The other families go where their `// @family` says, are run and checked before the frame: the vecadd template in
// the Lab on vecadd's inputs (against its CPU reference, then against the built-in vector4 variant), the Life
// template stepping the Life simulation (checked against one built-in step on the CPU), with its difference.
TEST(ScreenshotUserKernelCuda, ArrayAndStepKernelsRunInTheLabAndTheSimulation) {
  KS_REQUIRE_GPU();
  ::setenv("KS_WORKER", KS_CLI_PATH, 1);
  test::TempDir dir;
  const std::filesystem::path templates = std::filesystem::path(KS_SOURCE_DIR) / "assets/kernels";
  app::ScreenshotRequest lab;
  lab.kernel_file = templates / "vecadd.cu";
  lab.compare = "vecadd:vector4";
  lab.sections = {"lab"};
  lab.width = 900;
  lab.height = 700;
  lab.out = dir / "lab.png";
  EXPECT_NO_THROW(app::take_screenshot(lab));
  EXPECT_TRUE(std::filesystem::exists(lab.out));

  app::ScreenshotRequest life;
  life.kernel_file = templates / "life_step.cu";
  life.steps = 20;
  life.show_difference = true;
  life.width = 900;
  life.height = 700;
  life.out = dir / "life.png";
  EXPECT_NO_THROW(app::take_screenshot(life));
  EXPECT_TRUE(std::filesystem::exists(life.out));
}

}  // namespace
}  // namespace ks
#endif
