// The text boxes over the top of the image stand clear of each other in the real window: the launch overlay's
// header below the before/after split's "input" / "output" labels (issue 23: it covered them), and beside the
// sidebar, its lines wrapped to the free area (with a presenter's text size its end ran under the sidebar,
// showing through it). Compared as geometry, the boxes the last frame drew (print-status), because the labels'
// boxes let grid lines through and a pixel comparison cannot tell a label from what is under it.
#include <regex>
#include <string>

#include "gui_app_fixture.hpp"

namespace ks::test {
namespace {

struct Box {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool drawn() const { return x1 > x0 && y1 > y0; }
};

bool overlap(const Box& a, const Box& b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

std::string rect_pattern() { return "(-?\\d+),(-?\\d+),(-?\\d+),(-?\\d+)"; }

Box box_from(const std::smatch& m, std::size_t first) {
  return {std::stof(m[first]), std::stof(m[first + 1]), std::stof(m[first + 2]), std::stof(m[first + 3])};
}

struct TopBoxes {
  Box input_label, output_label, header;
  std::string viewport;
  float sidebar_x = 0;
};

TopBoxes top_boxes(const std::string& status) {
  std::smatch labels, header, viewport, sidebar;
  EXPECT_TRUE(std::regex_search(status, labels,
                                std::regex(" split_labels=" + rect_pattern() + ";" + rect_pattern() + " ")))
      << status;
  EXPECT_TRUE(std::regex_search(status, header, std::regex(" launch_header=" + rect_pattern() + " "))) << status;
  EXPECT_TRUE(std::regex_search(status, viewport, std::regex(" viewport=(\\d+x\\d+) "))) << status;
  EXPECT_TRUE(std::regex_search(status, sidebar, std::regex(" sidebar_x=(\\d+) "))) << status;
  if (labels.empty() || header.empty() || viewport.empty() || sidebar.empty()) return {};
  return {box_from(labels, 1), box_from(labels, 5), box_from(header, 1), viewport[1], std::stof(sidebar[1])};
}

TEST_F(GuiApp, TheLaunchHeaderStandsBelowTheSplitLabels) {
  // Window sizes: a 1024x700 projector, the 1600x1000 screen, one so small that the sidebar takes 60% of it, and
  // the projector with the presenter's text size (24 points).
  struct Case {
    int width, height, text_points;
  };
  const std::vector<Case> cases = {{1024, 700, 13}, {1600, 1000, 13}, {480, 360, 13}, {1024, 700, 24}};
  std::string script =
      "open sample\n"
      "kernel box\n"
      "split on\n"
      "menu View/Launch grid\n";
  for (const Case& c : cases)
    script += "text-size " + std::to_string(c.text_points) + "\nwindow-size " + std::to_string(c.width) + "x" +
              std::to_string(c.height) +
              "\n"
              "print-status\n"
              "panels off\n"
              "print-status\n"
              "panels on\n";
  const AppRun run = run_script(script + "quit\n", {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const auto status = lines_starting(run.out, "status ");
  ASSERT_EQ(status.size(), 2 * cases.size()) << run.out;
  std::vector<std::string> viewports;
  for (const std::string& s : status) {
    const TopBoxes b = top_boxes(s);
    viewports.push_back(b.viewport);
    ASSERT_TRUE(b.input_label.drawn() && b.output_label.drawn()) << "the split's labels are drawn: " << s;
    ASSERT_TRUE(b.header.drawn()) << "the launch header is drawn: " << s;
    EXPECT_FALSE(overlap(b.header, b.input_label)) << "the header covers \"input\": " << s;
    EXPECT_FALSE(overlap(b.header, b.output_label)) << "the header covers \"output\": " << s;
    EXPECT_GE(b.header.y0, std::max(b.input_label.y1, b.output_label.y1)) << "the header is below the labels: " << s;
    EXPECT_LE(b.header.x1, b.sidebar_x) << "the header ends before the sidebar: " << s;
  }
  // Each size was one of its own (the window took it).
  for (std::size_t i = 2; i < 6; i += 2) EXPECT_NE(viewports[i], viewports[i - 2]) << run.out;
}

Box box_named(const std::string& status, const std::string& name) {
  std::smatch m;
  EXPECT_TRUE(std::regex_search(status, m, std::regex(" " + name + "=" + rect_pattern() + " "))) << status;
  return m.empty() ? Box{} : box_from(m, 1);
}

// With a presenter's text size on a 1024x700 projector the pixel inspector and the launch overlay's hover text
// stay beside the sidebar (their ends ran under it), and the hover text does not cover the header.
TEST_F(GuiApp, ThePixelTextsStayBesideTheSidebarWithLargeText) {
  const AppRun run = run_script(
      "open sample\n"
      "kernel box\n"
      "device-model h100\n"  // the launch pictured (and its hover text) without a GPU
      "menu View/Launch grid\n"
      "text-size 24\n"
      "window-size 1024x700\n"
      "mouse move 40 150\n"  // on the image, under the header
      "mouse move 41 150\n"
      "print-status\n"
      "mouse move 300 420\n"  // the middle of the free area
      "mouse move 301 420\n"
      "print-status\n"
      "quit\n",
      {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const auto status = lines_starting(run.out, "status ");
  ASSERT_EQ(status.size(), 2u) << run.out;
  for (const std::string& s : status) {
    const TopBoxes b = top_boxes(s);
    const Box inspector = box_named(s, "inspector"), hover = box_named(s, "launch_hover");
    ASSERT_TRUE(inspector.drawn() && hover.drawn() && b.header.drawn()) << s;
    EXPECT_LE(inspector.x1, b.sidebar_x) << "the inspector ends before the sidebar: " << s;
    EXPECT_LE(hover.x1, b.sidebar_x) << "the hover text ends before the sidebar: " << s;
    EXPECT_LE(b.header.x1, b.sidebar_x) << s;
    EXPECT_FALSE(overlap(hover, b.header)) << "the hover text covers the header: " << s;
  }
}


// A playlist's caption and step list at a presenter's text size (24 points) on a 1024x700 projector, and on the
// 1600x1000 screen at both sizes: the caption stands below the step list, and both beside the sidebar (at 24 points
// the caption, twice the text size in the narrow free area, grew up over the list: issue 23).
TEST_F(GuiApp, APlaylistsCaptionStandsClearOfItsStepListWithLargeText) {
  struct Case {
    int width, height, text_points;
  };
  const std::vector<Case> cases = {{1024, 700, 24}, {1600, 1000, 24}, {1024, 700, 13}};
  std::string script;
  constexpr int kSteps = 5;  // every step of the demo, from its first
  for (const Case& c : cases) {
    script += "text-size " + std::to_string(c.text_points) + "\nwindow-size " + std::to_string(c.width) + "x" +
              std::to_string(c.height) + "\nplaylist naive-tiled-separable\n";
    for (int step = 0; step < kSteps; ++step) script += (step ? "next\n" : "") + std::string("print-status\n");
  }
  const AppRun run = run_script(script + "quit\n", {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const auto status = lines_starting(run.out, "status ");
  ASSERT_EQ(status.size(), cases.size() * kSteps) << run.out;
  for (const std::string& s : status) {
    const Box caption = box_named(s, "caption"), list = box_named(s, "playlist_list");
    std::smatch sidebar;
    ASSERT_TRUE(std::regex_search(s, sidebar, std::regex(" sidebar_x=(\\d+) "))) << s;
    const float sidebar_x = std::stof(sidebar[1]);
    ASSERT_TRUE(caption.drawn() && list.drawn()) << s;
    EXPECT_FALSE(overlap(caption, list)) << "the caption covers the step list: " << s;
    EXPECT_GE(caption.y0, list.y1) << "the caption is below the list: " << s;
    EXPECT_LE(caption.x1, sidebar_x) << "the caption ends before the sidebar: " << s;
    EXPECT_LE(list.x1, sidebar_x) << "the step list ends before the sidebar: " << s;
  }
}

}  // namespace
}  // namespace ks::test
