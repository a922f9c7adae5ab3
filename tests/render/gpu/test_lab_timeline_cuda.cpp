// The basics lab on the GPU, drawn headless: vecadd with pinned memory in 4 streams puts the serial and the
// streamed timelines in the Timing section, one colour per stream. With KS_LAB_TIMELINE_PNG=PATH the frame is
// also written there: that is how README's docs/images/timeline.png is made on a GPU machine without Qt
// (where Qt exists, `kernelscope --screenshot` with the options below does the same).
#ifdef KS_HAVE_SCREENSHOT
#include <gtest/gtest.h>

#include <cstdlib>

#include "gui/screenshot.hpp"
#include "io/image_io.hpp"
#include "panels/log_log_plot.hpp"
#include "render_test_support.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

TEST(LabCudaTimeline, FourStreamsDrawTheirBarsInTheTimingSection) {
  KS_REQUIRE_GPU();
  test::TempDir dir;
  const char* keep = std::getenv("KS_LAB_TIMELINE_PNG");
  app::ScreenshotRequest r;
  r.out = keep && *keep ? std::filesystem::path(keep) : dir / "timeline.png";
  r.kernel = "vecadd";
  r.variant = "vector4";
  r.lab_size = "2^26";
  r.lab_host = "pinned";
  r.lab_streams = 4;
  r.sections = {"timing"};
  r.sidebar_width = 620;
  r.width = 1000;
  r.height = 560;
  r.backend = "cuda";
  const app::ScreenshotResult shot = app::take_screenshot(r);
  const Image frame = convert_channels(shot.frame, 4);
  // Every stream's colour fills bars in the sidebar (chunks 0..15 go to streams c mod 4).
  for (int stream = 0; stream < 4; ++stream) {
    const ImU32 c = ui::panels::series_colour(stream);
    const test::Rgb rgb{int(c & 0xff), int((c >> 8) & 0xff), int((c >> 16) & 0xff)};
    int n = 0;
    for (int y = 0; y < frame.height(); ++y)
      for (int x = frame.width() - 620; x < frame.width(); ++x)
        if (test::rgb_at(frame, x, y) == rgb) ++n;
    EXPECT_GT(n, 30) << "stream " << stream;
  }
}

}  // namespace
}  // namespace ks
#endif
