// The desktop app's menus under Xvfb: the entries the issue lists with their usual shortcuts, View entries that
// act on the viewport, and the About box naming version, GL renderer and display path.
#include "gui_app_fixture.hpp"

namespace ks::test {
namespace {

TEST_F(GuiApp, MenusHoldTheEntriesAndShortcuts) {
  const AppRun run = run_script("print-menus\nquit\n");
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  for (const char* entry :
       {"menu File/Open image... [Ctrl+O]", "menu File/Open recent/", "menu File/Export result image... [Ctrl+S]",
        "menu File/Save screenshot... [Ctrl+Shift+S]", "menu File/Export timings... [Ctrl+T]",
        "menu File/Quit [Ctrl+Q]", "menu View/Fit [F]", "menu View/1:1 [1]", "menu View/Zoom in [Ctrl++, +, =]",
        "menu View/Zoom out [Ctrl+-, -]", "menu View/Panels [P]", "menu View/Before/after split [S]",
        "menu View/Launch grid [G]", "menu Help/About kernelscope"})
    EXPECT_NE(run.out.find(entry), std::string::npos) << "missing: " << entry << "\n" << run.out;
}

TEST_F(GuiApp, ViewEntriesActOnTheViewport) {
  const AppRun run = run_script(
      "menu View/1:1\nprint-status\n"
      "menu View/Zoom in\nprint-status\n"
      "menu View/Panels\nmenu View/Before/after split\nprint-status\n"
      "colormap viridis\nprint-status\n"
      "menu View/No such entry\nexpect-error\nquit\n");
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::vector<std::string> status = lines_starting(run.out, "status ");
  ASSERT_EQ(status.size(), 4u) << run.out;
  EXPECT_NE(status[0].find("zoom=1 "), std::string::npos) << status[0];
  EXPECT_NE(status[1].find("zoom=1.5 "), std::string::npos) << status[1];
  EXPECT_NE(status[2].find("panels=off split=on"), std::string::npos) << status[2];
  EXPECT_NE(status[3].find("colormap=viridis"), std::string::npos) << status[3];
}

// The launch overlay on and off from the View menu, drawn in the window without failing (the CPU backend without
// a model: its header says why there is no grid).
TEST_F(GuiApp, LaunchGridEntryTogglesTheOverlay) {
  const AppRun run = run_script("menu View/Launch grid\nprint-status\nmenu View/Launch grid\nprint-status\nquit\n");
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::vector<std::string> status = lines_starting(run.out, "status ");
  ASSERT_EQ(status.size(), 2u) << run.out;
  EXPECT_NE(status[0].find("launch_grid=on"), std::string::npos) << status[0];
  EXPECT_NE(status[1].find("launch_grid=off"), std::string::npos) << status[1];
}

TEST_F(GuiApp, AboutNamesVersionGlRendererAndDisplayPath) {
  const AppRun run = run_script("print-about\nquit\n");
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::string about = line_starting(run.out, "about ");
  EXPECT_NE(about.find("kernelscope " KS_VERSION), std::string::npos) << about;
  EXPECT_NE(about.find("GPU:"), std::string::npos) << about;
  EXPECT_NE(about.find("OpenGL:"), std::string::npos) << about;
  EXPECT_NE(about.find("Display path:"), std::string::npos) << about;
  EXPECT_TRUE(about.find("host upload") != std::string::npos || about.find("CUDA-GL interop") != std::string::npos)
      << about;
}

// After a file dialog closes, the keyboard is the viewport's again (issue 23: without a window manager, as here,
// Ctrl+O and T did nothing until the window was clicked).
TEST_F(GuiApp, FocusReturnsToTheViewportAfterADialog) {
  const AppRun run = run_script(
      "nowait menu File/Open image...\n"  // the real dialog, closed by the next line as Escape would
      "close-dialog\n"
      "sleep 200\n"  // the X server's answer to the window's activation
      "print-status\n"
      "nowait menu File/Open traffic dataset...\n"
      "close-dialog\n"
      "sleep 200\n"
      "print-status\n"
      "quit\n");
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const auto status = lines_starting(run.out, "status ");
  ASSERT_EQ(status.size(), 2u) << run.out;
  for (const std::string& line : status) EXPECT_NE(line.find(" focus=viewport "), std::string::npos) << line;
}

}  // namespace
}  // namespace ks::test
