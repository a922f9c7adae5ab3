// Presenter view in the window under Xvfb: View > Text size and High-contrast theme change the panels and are
// remembered for the next run; F11's presenter view goes full screen and back; a size outside 13..32 is refused
// and changes nothing. The panels are drawn with DejaVu Sans (fonts-dejavu-core, installed by scripts/setup).
#include "gui_app_fixture.hpp"

namespace ks::test {
namespace {

TEST_F(GuiApp, PresenterTextSizeAndThemeAreRememberedBetweenRuns) {
  const AppRun first = run_script(
      "print-status\n"
      "text-size 24\n"
      "high-contrast on\n"
      "presenter on\n"
      "print-status\n"
      "text-size 40\n"
      "expect-error\n"
      "presenter off\n"
      "print-status\n"
      "print-menus\n"
      "quit\n");
  ASSERT_EQ(first.exit_code, 0) << first.describe();
  const auto status = lines_starting(first.out, "status ");
  ASSERT_EQ(status.size(), 3u) << first.out;
  EXPECT_NE(status[0].find("text=13 contrast=off fullscreen=off font=DejaVu_Sans"), std::string::npos) << status[0];
  EXPECT_NE(status[1].find("text=24 contrast=on fullscreen=on"), std::string::npos) << status[1];
  EXPECT_NE(status[2].find("text=24 contrast=on fullscreen=off"), std::string::npos) << "40 refused: " << status[2];
  EXPECT_NE(first.out.find("menu View/Presenter view (full screen) [F11]"), std::string::npos) << first.out;
  EXPECT_NE(first.out.find("menu View/Text size/32 points"), std::string::npos) << first.out;

  const AppRun second = run_script("print-status\nquit\n");
  ASSERT_EQ(second.exit_code, 0) << second.describe();
  EXPECT_NE(line_starting(second.out, "status ").find("text=24 contrast=on fullscreen=off"), std::string::npos)
      << second.out;
}

}  // namespace
}  // namespace ks::test
