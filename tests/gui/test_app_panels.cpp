// The ImGui panels in the real window under Xvfb, used with the mouse as a person would: clicks at the places
// the panels occupy in a 1280x800 window (the sidebar is 380 logical pixels wide at the right edge; ImGui's
// built-in font, so the layout does not depend on the machine). Choosing another kernel in the Kernel combo
// re-runs at once, and the window keeps running (a stale kernel reference once made this frame throw).
#include "gui_app_fixture.hpp"

namespace ks::test {
namespace {

TEST_F(GuiApp, TheKernelComboAndRunAgainWorkWithTheMouse) {
  const AppRun run = run_script(
      "print-status\n"
      "click 1040 40\n"   // the kernel combo opens
      "click 988 98\n"    // its third entry: Sobel gradient
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

}  // namespace
}  // namespace ks::test
