// A lab kernel of arrays makes no image: instead of a blank viewport (issue 23) the free part of the image area shows
// the Lab's roofline, each run a point on it, beside the sidebar (and the whole width with the panels hidden). An
// image stencil, and kmeans (which shows its image), draw none.
#include <regex>
#include <string>

#include "gui_app_fixture.hpp"

namespace ks::test {
namespace {

struct LabView {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  int points = -1;
  float sidebar_x = 0, viewport_width = 0;
  bool drawn() const { return x1 > x0 && y1 > y0; }
};

LabView lab_view_of(const std::string& status) {
  std::smatch m, points, sidebar, viewport;
  LabView v;
  EXPECT_TRUE(std::regex_search(status, m, std::regex(" lab_view=(-?\\d+),(-?\\d+),(-?\\d+),(-?\\d+) "))) << status;
  EXPECT_TRUE(std::regex_search(status, points, std::regex(" lab_view_points=(\\d+)"))) << status;
  EXPECT_TRUE(std::regex_search(status, sidebar, std::regex(" sidebar_x=(\\d+) "))) << status;
  EXPECT_TRUE(std::regex_search(status, viewport, std::regex(" viewport=(\\d+)x\\d+ "))) << status;
  if (m.empty() || points.empty() || sidebar.empty() || viewport.empty()) return v;
  v = {std::stof(m[1]), std::stof(m[2]), std::stof(m[3]), std::stof(m[4]), std::stoi(points[1]),
       std::stof(sidebar[1]), std::stof(viewport[1])};
  return v;
}

TEST_F(GuiApp, ALabKernelOfArraysShowsItsRooflineWhereTheImageWouldBe) {
  const AppRun run = run_script(
      "window-size 1024x700\n"
      "kernel vecadd\n"
      "lab-size 100003\n"
      "print-status\n"  // 1: before a run: the chart, no point yet
      "run\n"
      "print-status\n"  // 2: one run, one point
      "window-size 1600x1000\n"
      "print-status\n"  // 3: larger with the window
      "panels off\n"
      "print-status\n"  // 4: the whole width
      "panels on\n"
      "kernel box\n"
      "print-status\n"  // 5: an image stencil: none
      "open sample\n"
      "kernel kmeans\n"
      "print-status\n"  // 6: kmeans shows its image: none
      "quit\n",
      {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const auto status = lines_starting(run.out, "status ");
  ASSERT_EQ(status.size(), 6u) << run.out;
  const LabView before = lab_view_of(status[0]), after = lab_view_of(status[1]), large = lab_view_of(status[2]),
                no_panels = lab_view_of(status[3]), stencil = lab_view_of(status[4]), kmeans = lab_view_of(status[5]);
  ASSERT_TRUE(before.drawn()) << status[0];
  EXPECT_EQ(before.points, 0) << status[0];
  ASSERT_TRUE(after.drawn()) << status[1];
  EXPECT_EQ(after.points, 1) << status[1];
  for (const LabView& v : {before, after, large}) {
    EXPECT_LE(v.x1, v.sidebar_x) << "the chart stays beside the sidebar";
    EXPECT_GE(v.x0, 0);
    EXPECT_GE(v.y0, 0);
  }
  EXPECT_GT(large.x1 - large.x0, after.x1 - after.x0) << status[2];
  EXPECT_GT(large.y1 - large.y0, after.y1 - after.y0) << status[2];
  ASSERT_TRUE(no_panels.drawn()) << status[3];
  EXPECT_GT(no_panels.x1, large.x1) << "without the sidebar the chart takes its place: " << status[3];
  EXPECT_LE(no_panels.x1, no_panels.viewport_width) << status[3];
  EXPECT_FALSE(stencil.drawn()) << status[4];
  EXPECT_FALSE(kmeans.drawn()) << status[5];
}

}  // namespace
}  // namespace ks::test
