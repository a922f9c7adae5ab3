// The CI smoke test of the desktop app: under Xvfb (Mesa's GLX, no GPU) `kernelscope` starts, opens the sample,
// runs a kernel, saves screenshots and quits; the PNGs have the window's size and are not blank, and the viewport
// shows what `kernelscope --screenshot` (EGL, no display) draws for the same request.
#include <cmath>
#include <cstdlib>
#include <regex>

#include "core/image.hpp"
#include "gui_app_fixture.hpp"
#include "io/image_io.hpp"

namespace ks::test {
namespace {

std::size_t distinct_rgb(const Image& rgb8) {
  std::vector<bool> seen(1 << 24);
  std::size_t n = 0;
  for (int y = 0; y < rgb8.height(); ++y) {
    const std::uint8_t* p = rgb8.row<std::uint8_t>(y);
    for (int x = 0; x < rgb8.width(); ++x, p += 3) {
      const std::size_t c = std::size_t(p[0]) << 16 | std::size_t(p[1]) << 8 | p[2];
      if (!seen[c]) ++n, seen[c] = true;
    }
  }
  return n;
}

// "viewport-shot PATH WxH" -> {W, H}
std::pair<int, int> printed_size(const std::string& line) {
  std::smatch m;
  if (!std::regex_search(line, m, std::regex(R"((\d+)x(\d+)$)"))) return {-1, -1};
  return {std::stoi(m[1]), std::stoi(m[2])};
}

TEST_F(GuiApp, StartsOnTheSampleRunsAKernelSavesScreenshotsAndQuits) {
  const AppRun run = run_script(
      "kernel sobel\n"
      "run\n"
      "window-shot window.png\n"
      "panels off\n"
      "fit\n"
      "viewport-shot viewport.png no-panels\n"
      "print-status\n"
      "quit\n");
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::string status = line_starting(run.out, "status ");
  EXPECT_NE(status.find("input=embedded sample"), std::string::npos) << status;
  EXPECT_NE(status.find("kernel=sobel"), std::string::npos) << status;
  EXPECT_NE(status.find("last=sobel/"), std::string::npos) << "the sobel run reached the window: " << status;

  // The window: the size it reports, which is its first size (no settings yet), with the panels and the image.
  const auto [ww, wh] = printed_size(line_starting(run.out, "window-shot "));
  EXPECT_EQ(ww, kDefaultWindowWidth);
  EXPECT_EQ(wh, kDefaultWindowHeight);
  const Image window = load_image(path("window.png"));
  EXPECT_EQ(window.width(), ww);
  EXPECT_EQ(window.height(), wh);
  EXPECT_GT(distinct_rgb(window), 500u) << "a blank or nearly blank window";

  // The viewport alone, without panels: the sample after sobel, as --screenshot draws it through EGL.
  const auto [vw, vh] = printed_size(line_starting(run.out, "viewport-shot "));
  const Image viewport = load_image(path("viewport.png"));
  ASSERT_EQ(viewport.width(), vw);
  ASSERT_EQ(viewport.height(), vh);
  EXPECT_LT(vh, wh) << "the menu bar and the status bar take some of the window";
  const std::string size = std::to_string(vw) + "x" + std::to_string(vh);
  const AppRun shot = run_headless({"--screenshot", path("egl.png").string(), "--kernel", "sobel", "--no-panels",
                                    "--size", size});
  ASSERT_EQ(shot.exit_code, 0) << shot.describe();
  const Image egl = load_image(path("egl.png"));
  ASSERT_EQ(egl.width(), vw);
  ASSERT_EQ(egl.height(), vh);
  // Same session, renderer and view: the frames agree but for rounding in two GL implementations' rasterisers.
  std::size_t differ = 0;
  for (int y = 0; y < vh; ++y) {
    const std::uint8_t* a = viewport.row<std::uint8_t>(y);
    const std::uint8_t* b = egl.row<std::uint8_t>(y);
    for (int i = 0; i < vw * 3; ++i) differ += std::abs(int(a[i]) - int(b[i])) > 8;
  }
  EXPECT_LT(double(differ) / (double(vw) * vh * 3), 0.01) << differ << " channel values differ by more than 8";
}

// A classroom projector's 1024x700 screen: the first window fits on it (it opened at 1280x800, partly off
// screen) and the app still runs a kernel there.
class GuiAppSmallScreen : public GuiApp {
 protected:
  std::pair<int, int> screen_size() const override { return {1024, 700}; }
};

TEST_F(GuiAppSmallScreen, TheFirstWindowFitsTheScreen) {
  const AppRun run = run_script("kernel gaussian\nrun\nwindow-shot window.png\nprint-status\nquit\n");
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const auto [ww, wh] = printed_size(line_starting(run.out, "window-shot "));
  EXPECT_GT(ww, 0);
  EXPECT_LE(ww, 1024);
  EXPECT_LE(wh, 700);
  EXPECT_NE(line_starting(run.out, "status ").find("last=gaussian/"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace ks::test
