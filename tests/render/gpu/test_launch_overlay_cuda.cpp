// The launch overlay on a real device (label gpu; skips without one): the CUDA backend's launch drawn over the
// image, block outlines on the block boundaries as with a device model. With KS_LAUNCH_OVERLAY_PNG=PATH it also
// writes README's docs/images/launch-overlay-gpu.png (the sidebar's Launch and Device sections with the device's
// own figures) on a GPU machine without Qt.
#ifdef KS_HAVE_SCREENSHOT
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "io/image_io.hpp"
#include "render_test_support.hpp"
#include "screenshot_run.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

bool yellowish(test::Rgb c) {
  return c[0] > 120 && c[1] > 100 && c[2] < 90;
}

// As ScreenshotLaunch.OutlinesOnBlockBoundariesAndIdleThreadsShaded, on the device: the 1024x768 sample at zoom 1
// in a 1280x900 frame (image pixel (x, y) is screen (x + 128, y + 66)), blocks of 48 x 16; the boundary x = 816
// crosses the flat dark rectangle x 780..939, y 60..199.
TEST(LaunchOverlayCuda, OutlinesOnBlockBoundariesOfTheDevicesLaunch) {
  KS_REQUIRE_GPU();
  test::TempDir dir;
  const auto out = dir / "launch.png";
  ASSERT_EQ(test::run_screenshot({"--screenshot", out.string(), "--backend", "cuda", "--variant", "tiled",
                                  "--kernel", "box", "--param", "radius=2", "--size", "1280x900", "--no-panels",
                                  "--zoom", "1", "--launch-overlay", "--block", "48x16"}),
            0);
  const Image frame = convert_channels(load_image(out), 4);
  bool outline = false;
  for (int dx = -1; dx <= 1; ++dx) outline = outline || yellowish(test::rgb_at(frame, 816 + 128 + dx, 135 + 66));
  EXPECT_TRUE(outline) << "no block outline at x = 816";
  EXPECT_TRUE(test::rgb_near(frame, 822 + 128, 135 + 66, {20, 20, 20})) << "the outline is not one line";

  const char* keep = std::getenv("KS_LAUNCH_OVERLAY_PNG");
  if (keep && *keep) {
    EXPECT_EQ(test::run_screenshot({"--screenshot", keep, "--backend", "cuda", "--variant", "tiled",
                                    "--launch-overlay", "--param", "radius=2", "--block", "32x8", "--probe",
                                    "574,150", "--zoom", "5", "--sections", "launch,device", "--size", "1280x800"}),
              0);
  }
}

}  // namespace
}  // namespace ks
#endif
