// Files in the desktop app under Xvfb: a file on the command line, a file dropped on the window, files that
// cannot be read (an error, the app keeps running with the sample), and what it remembers between runs (recent
// files, panel state, geometry in its settings file).
#include <fstream>

#include "core/image.hpp"
#include "gui_app_fixture.hpp"
#include "io/image_io.hpp"

namespace ks::test {
namespace {

std::string read_text(const std::filesystem::path& p) {
  std::ifstream f(p);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

TEST_F(GuiApp, AFileOnTheCommandLineOpensAndADroppedFileReplacesIt) {
  const auto first = path("first.png"), dropped = path("dropped.png");
  save_image(random_image(97, 61, 3, ElemType::U8, 1), first);
  save_image(random_image(33, 7, 1, ElemType::U8, 2), dropped);
  const AppRun run = run_script("print-status\ndrop " + dropped.string() + "\nprint-status\nquit\n", {first.string()});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::string before = line_starting(run.out, "status ");
  EXPECT_NE(before.find("input=" + first.string()), std::string::npos) << before;
  EXPECT_NE(before.find("title=first.png_-_kernelscope"), std::string::npos) << before;
  const std::string after = run.out.substr(run.out.find(before) + before.size());
  EXPECT_NE(after.find("input=" + dropped.string()), std::string::npos) << run.out;
  EXPECT_NE(after.find("title=dropped.png_-_kernelscope"), std::string::npos) << run.out;
}

TEST_F(GuiApp, AFileThatCannotBeReadShowsAnErrorAndTheAppKeepsRunning) {
  const auto bad = path("bad.png");
  std::ofstream(bad) << "this is not a PNG";
  const auto missing = path("missing.png");
  const AppRun run = run_script(
      "expect-error\n"  // the file of the command line
      "print-status\n"
      "open " + missing.string() + "\n"
      "expect-error\n"
      "drop " + bad.string() + "\n"
      "expect-error\n"
      "kernel gaussian\n"
      "run\n"
      "print-status\n"
      "quit\n",
      {bad.string()});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::string first_error = line_starting(run.out, "expected error: ");
  EXPECT_NE(first_error.find("Open image"), std::string::npos) << first_error;
  EXPECT_NE(first_error.find("bad.png"), std::string::npos) << "the message names the file: " << first_error;
  EXPECT_NE(run.out.find("missing.png"), std::string::npos) << run.out;
  // The status bar says the load failed instead of still saying "Loading ...".
  const std::string after_first = line_starting(run.out, "status ");
  EXPECT_EQ(after_first.find("message=Loading"), std::string::npos) << after_first;
  EXPECT_NE(after_first.find("bad.png", after_first.find("message=")), std::string::npos) << after_first;
  // The sample stands in, and kernels still run on it.
  const std::string status = line_starting(run.out, "status ");
  EXPECT_NE(status.find("input=embedded sample"), std::string::npos) << status;
  EXPECT_NE(run.out.find("last=gaussian/"), std::string::npos) << run.out;
}

TEST_F(GuiApp, RecentFilesPanelStateAndGeometryAreKeptBetweenRuns) {
  const auto image = path("kept.png");
  save_image(random_image(40, 30, 4, ElemType::U8, 3), image);
  const AppRun first = run_script("open " + image.string() + "\npanels off\nsplit on\nquit\n");
  ASSERT_EQ(first.exit_code, 0) << first.describe();
  const std::string ini = read_text(settings_path());
  EXPECT_NE(ini.find("kept.png"), std::string::npos) << ini;
  EXPECT_NE(ini.find("geometry="), std::string::npos) << ini;
  EXPECT_NE(ini.find("visible=false"), std::string::npos) << ini;

  const AppRun second = run_script("print-status\nprint-menus\nquit\n");
  ASSERT_EQ(second.exit_code, 0) << second.describe();
  EXPECT_NE(line_starting(second.out, "status ").find("panels=off"), std::string::npos) << second.out;
  EXPECT_NE(second.out.find("menu File/Open recent/" + image.string()), std::string::npos) << second.out;
}

}  // namespace
}  // namespace ks::test
