// The ImGui panels in the real window under Xvfb, used with the mouse as a person would: clicks at the places
// the panels occupy in a 1280x800 window (the sidebar is 380 logical pixels wide at the right edge; ImGui's
// built-in font, so the layout does not depend on the machine). Choosing another kernel in the Kernel combo
// re-runs at once, and the window keeps running (a stale kernel reference once made this frame throw).
#include <array>
#include <regex>

#include "gui_app_fixture.hpp"

namespace ks::test {
namespace {

TEST_F(GuiApp, TheKernelComboAndRunAgainWorkWithTheMouse) {
  const AppRun run = run_script(
      "print-status\n"
      "click 1040 40\n"   // the kernel combo opens
      "click 988 123\n"   // the third stencil, under the Stencils header: Sobel gradient
      "print-status\n"
      "click 1015 202\n"  // "Run again" below Sobel's three parameters
      "print-status\n"
      "quit\n");
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::vector<std::string> status = lines_starting(run.out, "status ");
  ASSERT_EQ(status.size(), 3u) << run.out;
  EXPECT_NE(status[0].find("kernel=box"), std::string::npos) << status[0];
  EXPECT_NE(status[0].find("runs=1 "), std::string::npos) << status[0];
  EXPECT_NE(status[1].find("kernel=sobel"), std::string::npos) << status[1];
  EXPECT_NE(status[1].find("runs=2 "), std::string::npos) << "the change ran at once: " << status[1];
  EXPECT_NE(status[1].find("last=sobel/"), std::string::npos) << status[1];
  EXPECT_NE(status[2].find("runs=3 "), std::string::npos) << "Run again ran again: " << status[2];
}

// The colormap legend stands where it covers none of the image (a fitted image leaves a margin above it), and a
// drag moves it there for the rest of the session, whatever is shown next (issue 15).
TEST_F(GuiApp, TheLegendKeepsOffTheImageAndStaysWhereItIsDragged) {
  const AppRun run = run_script(
      "kernel life\n"
      "sim pause\n"
      "sim grid 160x100\n"   // wide: margins above and below the fitted grid
      "print-status\n"
      "mouse move 60 20\n"    // onto the legend, as a hand would, then a drag
      "mouse down 60 20\n"
      "mouse move 160 220\n"
      "mouse move 260 420\n"
      "mouse up 260 420\n"
      "print-status\n"
      "kernel heat\n"
      "print-status\n"
      "quit\n",
      {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::vector<std::string> status = lines_starting(run.out, "status ");
  ASSERT_EQ(status.size(), 3u) << run.out;
  std::smatch m;
  auto legend = [&](const std::string& st) {
    EXPECT_TRUE(std::regex_search(st, m, std::regex(" legend=([-0-9.]+),([-0-9.]+) image=([-0-9]+),([-0-9]+),([-0-9]+),([-0-9]+)")))
        << st;
    return std::array<double, 6>{std::stod(m[1]), std::stod(m[2]), std::stod(m[3]), std::stod(m[4]), std::stod(m[5]),
                                 std::stod(m[6])};
  };
  const auto first = legend(status[0]);
  // The legend is one text line high (under 40 pixels) and starts above the image's top edge by its height.
  EXPECT_LE(first[1] + 40, first[3] + 1) << "the legend covers the image: " << status[0];
  const auto moved = legend(status[1]);
  EXPECT_NEAR(moved[0], first[0] + 200, 1) << status[1];
  EXPECT_NEAR(moved[1], first[1] + 400, 1) << status[1];
  EXPECT_DOUBLE_EQ(moved[3], first[3]) << "the drag moved the legend, not the image: " << status[1];
  const auto kept = legend(status[2]);
  EXPECT_EQ(kept[0], moved[0]) << status[2];
  EXPECT_EQ(kept[1], moved[1]) << status[2];
}

// The kernel list is grouped by family with headers (issue 15): the simulations and the lab are in it without
// scrolling, whole names show, and the Topology row opens the Topology window.
TEST_F(GuiApp, TheKernelListIsGroupedByFamily) {
  const AppRun run = run_script(
      "click 1040 40\n"   // the kernel combo opens: Stencils (7), Simulations (3), Topology, Lab (7)
      "mouse move 960 260\n"  // hovering Heat diffusion: its help stands left of the list
      "window-shot " + path("list.png").string() + "\n"
      "click 960 233\n"   // Game of Life, under the Simulations header
      "print-status\n"
      "click 1040 40\n"
      "click 960 309\n"   // Placement sweep and search, under Topology
      "print-status\n"
      "click 1040 40\n"
      "click 960 453\n"   // k-means colour quantisation, the last row of Lab
      "print-status\n"
      "quit\n");
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::vector<std::string> status = lines_starting(run.out, "status ");
  ASSERT_EQ(status.size(), 3u) << run.out;
  EXPECT_NE(status[0].find("kernel=life"), std::string::npos) << status[0];
  EXPECT_NE(status[0].find("topology=off"), std::string::npos) << status[0];
  EXPECT_NE(status[1].find("kernel=life"), std::string::npos) << "the Topology row selects no kernel: " << status[1];
  EXPECT_NE(status[1].find("topology=on"), std::string::npos) << status[1];
  EXPECT_NE(status[2].find("kernel=kmeans"), std::string::npos) << status[2];
}

}  // namespace
}  // namespace ks::test
