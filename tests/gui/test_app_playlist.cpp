// Demo playlists in the real window under Xvfb (CPU backend): a playlist opens from the command line and from
// a script, steps forward and back, a bad step says which and why while the next one still applies, the menu
// entries carry the presenter's keys, and closing gives the panels back as they were.
#include <fstream>
#include <regex>

#include "gui_app_fixture.hpp"

namespace ks::test {
namespace {

TEST_F(GuiApp, APlaylistStepsForwardAndBackAndABadStepReports) {
  {
    std::ofstream(path("show.json")) << R"({
      "schema": "kernelscope.playlist/1", "title": "Test show",
      "steps": [
        {"open": "sample", "kernel": "box", "params": {"radius": 3}, "caption": "Box of radius 3"},
        {"block": "33x33", "caption": "A block too large"},
        {"kernel": "gaussian", "panels": false, "caption": ["Gaussian", "second line"]}
      ]})";
  }
  const AppRun run = run_script("playlist " + path("show.json").string() +
                                    "\n"
                                    "print-status\n"
                                    "next\n"
                                    "next\n"
                                    "print-status\n"
                                    "next\n"  // at the end: says so
                                    "previous\n"
                                    "previous\n"
                                    "print-status\n"
                                    "menu File/Next step\n"
                                    "print-playlist\n"
                                    "print-menus\n"
                                    "close-playlist\n"
                                    "print-playlist\n"
                                    "print-status\n"
                                    "quit\n",
                                {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const auto states = lines_starting(run.out, "playlist title=");
  ASSERT_EQ(states.size(), 7u) << run.out;
  EXPECT_NE(states[0].find("title=\"Test show\" step=1/3 bad=1 caption=\"Box of radius 3\""),
            std::string::npos)
      << states[0];
  EXPECT_NE(states[1].find("step=2/3"), std::string::npos) << states[1];
  EXPECT_NE(states[2].find("step=3/3 bad=1 caption=\"Gaussian\""), std::string::npos) << states[2];
  EXPECT_NE(states[4].find("step=2/3"), std::string::npos) << states[4];
  EXPECT_NE(states[5].find("step=1/3"), std::string::npos) << states[5];
  EXPECT_NE(states[6].find("step=2/3"), std::string::npos) << states[6];  // the menu entry
  EXPECT_NE(run.out.find("playlist note: step 2 (\"A block too large\"): block '33x33' has 1089 threads"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("playlist: no next step"), std::string::npos) << run.out;
  EXPECT_NE(line_starting(run.out, "playlist none"), "") << run.out;

  const auto status = lines_starting(run.out, "status ");
  ASSERT_EQ(status.size(), 4u) << run.out;
  EXPECT_NE(status[0].find("kernel=box"), std::string::npos) << status[0];
  EXPECT_NE(status[1].find("kernel=gaussian"), std::string::npos) << status[1];  // the step after the bad one
  EXPECT_NE(status[1].find("panels=off"), std::string::npos) << status[1];
  EXPECT_NE(status[2].find("kernel=box"), std::string::npos) << status[2];
  EXPECT_NE(status[2].find("panels=on"), std::string::npos) << status[2];
  EXPECT_NE(status[3].find("panels=on"), std::string::npos) << status[3];

  EXPECT_NE(run.out.find("menu File/Next step [Space, PgDown, Right]"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("menu File/Previous step [PgUp, Left]"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("menu File/Close playlist [Esc]"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("menu File/Demo playlists/naive-tiled-separable"), std::string::npos) << run.out;
}

// The presenter's keys, pressed as a keyboard or a remote presses them: on while a playlist runs, and Space
// is Space again once it has ended.
TEST_F(GuiApp, APlaylistStepOpensTheWhySection) {
  {
    std::ofstream(path("why.json")) << R"({
      "schema": "kernelscope.playlist/1", "title": "Why",
      "steps": [
        {"open": "sample", "kernel": "box", "sections": ["kernel", "timing"], "caption": "The kernel"},
        {"sections": ["why"], "caption": "Why is it slow"}
      ]})";
  }
  const AppRun run = run_script("playlist " + path("why.json").string() +
                                    "\n"
                                    "print-status\n"
                                    "next\n"
                                    "print-status\n"
                                    "previous\n"
                                    "print-status\n"
                                    "quit\n",
                                {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const auto status = lines_starting(run.out, "status ");
  ASSERT_EQ(status.size(), 3u) << run.out;
  EXPECT_NE(status[0].find("why_section=closed"), std::string::npos) << status[0];
  EXPECT_NE(status[1].find("why_section=open"), std::string::npos) << status[1];
  EXPECT_NE(status[2].find("why_section=closed"), std::string::npos) << "going back: " << status[2];
}

TEST_F(GuiApp, ThePresentersKeysStepThroughAPlaylist) {
  const AppRun run = run_script(
      "key space\n"  // no playlist yet: nothing happens
      "print-playlist\n"
      "playlist naive-tiled-separable\n"
      "key space\n"
      "print-playlist\n"
      "key pagedown\n"
      "key right\n"
      "print-playlist\n"
      "key pageup\n"
      "key left\n"
      "print-playlist\n"
      "key escape\n"
      "print-playlist\n"
      "quit\n",
      {"--backend", "cpu"});
  if (run.err.find("built without it") != std::string::npos) GTEST_SKIP() << "built without Qt Test";
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const auto states = lines_starting(run.out, "playlist ");
  std::vector<std::string> steps;
  for (const std::string& s : states)
    if (s.starts_with("playlist none"))
      steps.push_back("none");
    else if (s.starts_with("playlist title="))
      steps.push_back(s.substr(s.find("step="), 8));
  EXPECT_EQ(steps, (std::vector<std::string>{"none", "step=1/5", "step=2/5", "step=4/5", "step=2/5", "none"}))
      << run.out;
}

// A panel's text field keeps its keys while it has the keyboard: Space and Right are typed there, Escape
// leaves the field (not the playlist), and then Space steps on again. (border_value's field of the box kernel
// is at about 1030, 182 in the first window's viewport.)
TEST_F(GuiApp, ATextFieldKeepsThePresentersKeys) {
  const AppRun run = run_script(
      "playlist naive-tiled-separable\n"
      "click 1030 182\n"
      "key space\n"
      "key right\n"
      "print-playlist\n"
      "key escape\n"
      "key space\n"
      "print-playlist\n"
      "quit\n",
      {"--backend", "cpu"});
  if (run.err.find("built without it") != std::string::npos) GTEST_SKIP() << "built without Qt Test";
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const auto states = lines_starting(run.out, "playlist title=");
  ASSERT_EQ(states.size(), 3u) << run.out;
  EXPECT_NE(states[1].find("step=1/5"), std::string::npos) << states[1];
  EXPECT_NE(states[2].find("step=2/5"), std::string::npos) << states[2];
}

// A click on a step in the list goes there (the list is at the top left: step 3's row is about 84 px down).
TEST_F(GuiApp, AClickOnAStepInTheListGoesThere) {
  const AppRun run = run_script("playlist naive-tiled-separable\nclick 100 84\nwait\nprint-playlist\nquit\n",
                                {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const auto states = lines_starting(run.out, "playlist title=");
  ASSERT_EQ(states.size(), 2u) << run.out;
  EXPECT_NE(states[1].find("step=3/5"), std::string::npos) << states[1];
}

TEST_F(GuiApp, ADemoPlaylistOpensFromTheCommandLine) {
  const AppRun run = run_script("print-playlist\nnext\nquit\n",
                                {"--backend", "cpu", "--playlist", "life-naive-to-bitpacked"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const auto states = lines_starting(run.out, "playlist title=");
  ASSERT_EQ(states.size(), 2u) << run.out;
  EXPECT_NE(states[0].find("title=\"Game of Life, naive to bit-packed\" step=1/5 bad=0"), std::string::npos)
      << states[0];
  EXPECT_NE(run.out.find("playlist note: No CUDA here"), std::string::npos) << run.out;  // step 2 on the CPU
}

TEST_F(GuiApp, AnUnreadablePlaylistIsShownAndTheWindowGoesOn) {
  std::ofstream(path("broken.json")) << "{\n \"schema\": \"kernelscope.playlist/1\",\n \"steps\": [ {,] }";
  const AppRun run =
      run_script("playlist " + path("broken.json").string() + "\nexpect-error\nprint-playlist\nquit\n",
                 {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  EXPECT_NE(run.out.find("not valid JSON at line 3"), std::string::npos) << run.out;
  EXPECT_NE(line_starting(run.out, "playlist none"), "") << run.out;
}

// On a 1024x700 screen a long caption spans the free area's bottom: the pixel inspector stands above it, not
// under it (issue 23).
class PlaylistOnASmallScreen : public GuiApp {
 protected:
  std::pair<int, int> screen_size() const override { return {1024, 700}; }
};

TEST_F(PlaylistOnASmallScreen, ThePixelInspectorStandsAboveTheCaption) {
  std::ofstream(path("show.json")) << R"({
      "schema": "kernelscope.playlist/1", "title": "Test show",
      "steps": [{"open": "sample", "kernel": "box", "caption": ["A box filter averages the pixels around each one:",
        "a caption long enough to wrap over two lines, or three, on a projector's small screen"]}]})";
  const AppRun run = run_script("playlist " + path("show.json").string() +
                                    "\n"
                                    "next\n"
                                    "mouse move 30 300\n"  // on the image, at the left
                                    "mouse move 31 300\n"
                                    "print-status\n"
                                    "quit\n",
                                {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::string status = line_starting(run.out, "status ");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(status, m,
                                std::regex(" inspector=(\\d+),(\\d+),(\\d+),(\\d+) caption=(\\d+),(\\d+),(\\d+),(\\d+)")))
      << status;
  const int inspector_bottom = std::stoi(m[4]), caption_top = std::stoi(m[6]);
  ASSERT_GT(std::stoi(m[3]), 0) << "the inspector is shown: " << status;
  ASSERT_GT(std::stoi(m[7]), 0) << "the caption is shown: " << status;
  EXPECT_LE(inspector_bottom, caption_top) << status;
}

}  // namespace
}  // namespace ks::test
