// Live simulations in the real window under Xvfb (CPU backend): life runs from a placed and a dropped pattern,
// the brush paints, playing advances while the window draws and pause stops it, frames and a GIF are exported,
// refused values keep the app running, and a stencil runs again afterwards.
#include <cmath>
#include <fstream>

#include "core/error.hpp"
#include "gui_app_fixture.hpp"
#include "io/gif_writer.hpp"
#include "io/image_io.hpp"

namespace ks::test {
namespace {

double zoom_of(const std::string& status) {
  const std::size_t at = status.find(" zoom=");
  if (at == std::string::npos) throw std::runtime_error("no zoom in: " + status);
  return std::stod(status.substr(at + 6));
}

// The view follows what is shown (issue 15's rough edges): a simulation's grid of another size than the photo is
// fitted, the photo is fitted again when it comes back, hiding the panels fits a fitted view to the wider area
// and showing them fits it back; Life plays from its first choice.
TEST_F(GuiApp, TheViewIsFittedAgainWhenTheImageSizeOrThePanelsChange) {
  const AppRun run = run_script(
      "print-status\n"      // the sample, fitted beside the panels
      "panels off\n"
      "print-status\n"      // fitted to the whole viewport: larger
      "panels on\n"
      "print-status\n"      // back
      "kernel life\n"
      "sim grid 40x30\n"
      "sim wait-generation 3\n"  // playing without a Play
      "print-status\n"      // the 40x30 grid fitted: far larger zoom
      "kernel box\n"
      "print-status\n"      // the photo again, fitted as at first
      "zoom 2\n"
      "panels off\n"
      "print-status\n"      // a view the user zoomed stays as it is
      "quit\n",
      {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const auto status = lines_starting(run.out, "status ");
  ASSERT_EQ(status.size(), 6u) << run.out;
  const double beside = zoom_of(status[0]), alone = zoom_of(status[1]);
  EXPECT_GT(alone, beside * 1.05) << status[0] << "\n" << status[1];
  EXPECT_DOUBLE_EQ(zoom_of(status[2]), beside) << status[2];
  EXPECT_NE(status[3].find("kernel=life"), std::string::npos) << status[3];
  EXPECT_GT(zoom_of(status[3]), beside * 10) << "a 40x30 grid fitted: " << status[3];
  EXPECT_DOUBLE_EQ(zoom_of(status[4]), beside) << status[4];
  EXPECT_NEAR(zoom_of(status[5]), beside * 2, beside * 2e-3) << status[5];  // (printed to 4 digits)
  // The status bar says the zoom in percent, as the view has it.
  for (const std::string& st : status) {
    const std::string percent = "status_zoom=zoom_" + std::to_string(int(std::lround(zoom_of(st) * 100))) + "%";
    EXPECT_NE(st.find(percent), std::string::npos) << st;
  }
}

TEST_F(GuiApp, LifeRunsLiveFromPatternsAndTheBrushInTheWindow) {
  // A blinker in RLE, dropped on the window as from a file manager.
  {
    std::ofstream rle(path("blinker.rle"));
    rle << "#N Blinker\nx = 3, y = 1, rule = B3/S23\n3o!\n";
  }
  bool gifs = true;  // builds without giflib say so instead (tests/cpu/test_gif_writer.cpp)
  try {
    require_gif_support();
  } catch (const Error&) {
    gifs = false;
  }
  const std::string script =
      "kernel life\n"
      "sim pause\n"
      "sim grid 64x48\n"
      "pattern glider\n"
      "sim step 4\n"
      "sim print\n"
      "sim play\n"
      "sim wait-generation 40\n"
      "sim pause\n"
      "sim print\n"
      "drop " + path("blinker.rle").string() + "\n"
      "sim print\n"
      "sim step 3\n"
      "sim brush on 0 1\n"
      "sim paint 5 5 9 5\n"
      "sim print\n"
      "viewport-shot " + path("life.png").string() + " no-panels\n"
      "sim export-frames " + path("frames").string() + " 3\n" +
      (gifs ? "sim export-gif " + path("life.gif").string() + " 3 2\n" : std::string()) +
      "param rule=nonsense\n"
      "expect-error\n"
      "sim print\n"
      "kernel box\n"
      "print-status\n"
      "quit\n";
  const AppRun run = run_script(script, {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  std::vector<std::string> sims;
  for (std::size_t at = run.out.find("sim kernel="); at != std::string::npos; at = run.out.find("sim kernel=", at + 1))
    sims.push_back(run.out.substr(at, run.out.find('\n', at) - at));
  ASSERT_EQ(sims.size(), 5u) << run.out;
  EXPECT_NE(sims[0].find("generation=4 playing=off frame=64x48 population=5"), std::string::npos) << sims[0];
  EXPECT_NE(sims[1].find("playing=off"), std::string::npos) << sims[1];
  EXPECT_EQ(sims[1].find("generation=4 "), std::string::npos) << "playing advanced it: " << sims[1];
  EXPECT_NE(sims[2].find("generation=0 playing=off frame=64x48 population=3"), std::string::npos)
      << "the dropped blinker restarts life: " << sims[2];
  // The blinker after 3 steps (vertical: 3 cells) and a painted row of 5 cells away from it.
  EXPECT_NE(sims[3].find("generation=3 playing=off frame=64x48 population=8"), std::string::npos) << sims[3];
  // The frames ran 3 more steps, the GIF 2 x 2 (its first frame is the state shown).
  EXPECT_NE(sims[4].find(gifs ? "generation=10 " : "generation=6 "), std::string::npos) << sims[4];
  EXPECT_NE(line_starting(run.out, "status ").find("kernel=box"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("expected error:"), std::string::npos);

  const Image shot = load_image(path("life.png"));
  EXPECT_GT(shot.width(), 100);
  for (const char* f : {"frame_00000.png", "frame_00001.png", "frame_00002.png"})
    EXPECT_EQ(load_image(path("frames") / f).width(), 64) << f;
  EXPECT_FALSE(std::filesystem::exists(path("frames") / "frame_00003.png"));
  if (gifs) {
    const Image first = load_image(path("life.gif"));  // stb_image: the GIF's first frame
    EXPECT_EQ(first.width(), 64);
    EXPECT_EQ(first.height(), 48);
  }
}

// With Paint on, a circle under the pointer shows the brush: the cells within its radius of the cell there
// (issue 15). Life's dead cells are black, so the circle's white is the outline's.
TEST_F(GuiApp, TheBrushOutlineFollowsThePointerWhilePaintIsOn) {
  const AppRun run = run_script(
      "kernel life\n"
      "sim pause\n"
      "sim grid 160x100\n"
      "pattern glider\n"  // a glider at the centre: the rest is dead
      "mouse move 300 300\n"
      "viewport-shot " + path("off.png").string() + " no-panels\n"
      "sim brush on 6\n"
      "mouse move 300 300\n"
      "viewport-shot " + path("on.png").string() + " no-panels\n"
      "print-status\n"
      "quit\n",
      {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const double zoom = zoom_of(line_starting(run.out, "status "));
  const Image off = load_image(path("off.png")), on = load_image(path("on.png"));
  // White pixels near (x, y): the pointer's cell centre lies within half a cell of the pointer.
  auto white_near = [&](const Image& shot, double x, double y) {
    const int reach = int(std::ceil(zoom / 2)) + 2;
    for (int dy = -reach; dy <= reach; ++dy)
      for (int dx = -reach; dx <= reach; ++dx) {
        const auto* p = shot.row<std::uint8_t>(int(y) + dy) + (int(x) + dx) * shot.channels();
        if (p[0] > 200 && p[1] > 200 && p[2] > 200) return true;
      }
    return false;
  };
  const double r = (6 + 0.5) * zoom;  // cells within 6 of the centre cell reach half a cell further
  for (auto [dx, dy] : {std::pair{1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}, {0.0, -1.0}}) {
    EXPECT_TRUE(white_near(on, 300 + dx * r, 300 + dy * r)) << "no outline at " << dx << "," << dy;
    EXPECT_FALSE(white_near(off, 300 + dx * r, 300 + dy * r)) << "an outline without Paint at " << dx << "," << dy;
  }
  EXPECT_FALSE(white_near(on, 300, 300)) << "the circle is an outline: inside stays as the cells are";
}

// The Simulation section's export buttons ask for their file or folder through the window's save dialog and its
// replace question, as the menus' exports do (issue 15): the dialogs are answered by the script here.
TEST_F(GuiApp, SimulationExportButtonsAskForAFileAndBeforeReplacingOne) {
  bool gifs = true;
  try {
    require_gif_support();
  } catch (const Error&) {
    gifs = false;
  }
  const std::string gif = path("anim.gif").string();
  std::filesystem::create_directories(path("frames"));
  std::ofstream(path("frames") / "frame_00002.png") << "an older frame";
  std::string script =
      "kernel life\n"
      "sim pause\n"
      "sim grid 64x48\n"
      "pattern glider\n"
      "click-button Export frames...\n"  // no answer: the dialog is cancelled, nothing is written
      "save-as " + path("frames").string() + "\n"
      "overwrite no\n"
      "click-button Export frames...\n"  // frame_00002.png is there: asked, and refused
      "overwrite yes\n"
      "save-as " + path("frames").string() + "\n"
      "click-button Export frames...\n"
      "sim print\n";
  if (gifs)
    script +=
        "save-as " + gif + "\n"
        "click-button Export GIF...\n"  // a new file: no question
        "sim print\n"
        "overwrite no\n"
        "save-as " + path("anim").string() + "\n"  // the filter's extension is added: anim.gif exists
        "click-button Export GIF...\n"
        "sim print\n";
  script += "quit\n";
  const AppRun run = run_script(script, {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const auto questions = lines_starting(run.out, "question: ");
  ASSERT_EQ(questions.size(), gifs ? 8u : 5u) << run.out;
  EXPECT_EQ(questions[0], "question: Dialog Folder for the simulation frames -> cancelled");
  EXPECT_EQ(questions[1], "question: Dialog Folder for the simulation frames -> " + path("frames").string());
  EXPECT_EQ(questions[2], "question: Replace files? frame_00002.png -> no");
  EXPECT_EQ(questions[4], "question: Replace files? frame_00002.png -> yes");
  const auto sims = lines_starting(run.out, "sim kernel=");
  ASSERT_EQ(sims.size(), gifs ? 3u : 1u) << run.out;
  // The 100 frames of the one export that was agreed to (each after one more step).
  EXPECT_NE(sims[0].find("generation=100 "), std::string::npos) << sims[0];
  EXPECT_EQ(load_image(path("frames") / "frame_00002.png").width(), 64);
  EXPECT_TRUE(std::filesystem::exists(path("frames") / "frame_00099.png"));
  if (!gifs) return;
  EXPECT_EQ(questions[5], "question: Dialog Export simulation animation -> " + gif);
  EXPECT_EQ(questions[6], "question: Dialog Export simulation animation -> " + path("anim").string());
  // The second GIF export was refused at the replace question: asked, answered no, nothing ran.
  EXPECT_EQ(questions[7], "question: Replace files? anim.gif -> no");
  EXPECT_NE(sims[1].find("generation=199 "), std::string::npos) << "100 frames, one step apart: " << sims[1];
  EXPECT_NE(sims[2].find("generation=199 "), std::string::npos) << sims[2];
  EXPECT_EQ(load_image(path("anim.gif")).width(), 64);
  EXPECT_FALSE(std::filesystem::exists(path("anim")));
}

// A GIF being written shows its progress and its Cancel beside "Export GIF...", not beside "Export frames..."
// (issue 23), and that Cancel stops it: no file.
TEST_F(GuiApp, TheGifExportShowsItsProgressInItsOwnRow) {
  try {
    require_gif_support();
  } catch (const Error& e) {
    GTEST_SKIP() << e.full_message();
  }
  const std::string gif = path("anim.gif").string();
  const AppRun run = run_script(
      "kernel life\n"
      "sim pause\n"
      "sim grid 2048x2048\n"  // 100 frames of four million cells: seconds, time to look at the panel
      "save-as " + gif + "\n"
      "nowait click-button Export GIF...\n"
      "nowait sleep 300\n"
      "nowait sim print\n"  // while it writes
      "nowait click-button Cancel##frames\n"  // the frames' row has no Cancel: it is not their export
      "expect-error\n"
      "nowait click-button Cancel##gif\n"
      "wait\n"
      "sim print\n"
      "quit\n",
      {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  EXPECT_NE(run.out.find("expected error: no button 'Cancel##frames' is shown"), std::string::npos) << run.out;
  const auto sims = lines_starting(run.out, "sim kernel=");
  ASSERT_EQ(sims.size(), 2u) << run.out;
  EXPECT_EQ(sims[1].find("generation=100 "), std::string::npos) << "cancelled before its 100 frames: " << sims[1];
  EXPECT_FALSE(std::filesystem::exists(gif)) << "a cancelled GIF leaves no file";
}

}  // namespace
}  // namespace ks::test
