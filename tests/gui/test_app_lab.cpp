// The basics lab in the real window under Xvfb (CPU backend): a lab kernel is chosen, sized, run and swept
// with its Lab, Timing and Roofline sections drawn; a refused size keeps the app running; kmeans puts its
// quantised image in the viewport; the timings export carries the lab report; and a stencil runs again
// afterwards.
#include <fstream>
#include <nlohmann/json.hpp>

#include "gui_app_fixture.hpp"
#include "io/image_io.hpp"

namespace ks::test {
namespace {

TEST_F(GuiApp, TheLabRunsSweepsAndShowsKmeansInTheWindow) {
  const std::string script =
      "kernel vecadd\n"
      "print-lab\n"
      "lab-size 2^14\n"
      "run\n"
      "print-lab\n"
      "lab-size 2^40\n"
      "expect-error\n"
      "sweep\n"
      "print-lab\n"
      "window-shot " +
      path("lab.png").string() +
      "\n"
      "export-timings " +
      path("lab.json").string() +
      "\n"
      "kernel kmeans\n"
      "param k=4\n"
      "run\n"
      "print-lab\n"
      "viewport-shot " +
      path("kmeans.png").string() +
      " no-panels\n"
      "kernel box\n"
      "print-status\n"
      "quit\n";
  const AppRun run = run_script(script, {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::vector<std::string> labs = lines_starting(run.out, "lab ");
  ASSERT_EQ(labs.size(), 4u) << run.out;
  EXPECT_NE(labs[0].find("kernel=vecadd runs=0 last=none"), std::string::npos) << labs[0];
  EXPECT_NE(labs[1].find("runs=1 last=cpu@16384 check=unchecked image=none sweep=none"), std::string::npos)
      << labs[1];
  EXPECT_NE(labs[2].find("sweep=5/5 complete"), std::string::npos) << labs[2];
  EXPECT_NE(labs[3].find("kernel=kmeans"), std::string::npos) << labs[3];
  EXPECT_EQ(labs[3].find("image=none"), std::string::npos) << "kmeans shows its image: " << labs[3];
  EXPECT_NE(run.out.find("expected error:"), std::string::npos);
  EXPECT_NE(line_starting(run.out, "status ").find("kernel=box"), std::string::npos) << run.out;

  EXPECT_GT(load_image(path("lab.png")).width(), 1000);
  const Image kmeans = load_image(path("kmeans.png"));
  EXPECT_GT(kmeans.width(), 100);
  std::ifstream in(path("lab.json"));
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j.at("schema"), "kernelscope.lab/1");
  EXPECT_EQ(j.at("size_sweep").at("points").size(), 5u);
}

// The Lab section's buttons with the mouse, where a 1280x800 window draws them for vecadd (no parameters, so
// the Kernel section above is short), in the panels' DejaVu Sans: Run at (922, 337), Sweep sizes at (984, 337).
TEST_F(GuiApp, TheLabButtonsRunAndSweepWithTheMouse) {
  const AppRun run = run_script(
      "kernel vecadd\n"
      "lab-size 2^12\n"
      "print-lab\n"
      "click 922 337\n"
      "print-lab\n"
      "click 984 337\n"
      "print-lab\n"
      "quit\n",
      {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::vector<std::string> labs = lines_starting(run.out, "lab ");
  ASSERT_EQ(labs.size(), 3u) << run.out;
  EXPECT_NE(labs[0].find("runs=0"), std::string::npos) << labs[0];
  EXPECT_NE(labs[1].find("runs=1 last=cpu@4096"), std::string::npos) << "Run ran: " << labs[1];
  EXPECT_NE(labs[2].find("sweep=3/3 complete"), std::string::npos) << "Sweep sizes swept: " << labs[2];
}

// A finished lab run shows its results without the mouse moving (issue 23: sort and matmul kept "Running...", a
// bar at "done" and a live Cancel until the pointer moved). The run changes no image, so nothing but its end can
// make the window draw: the frame the viewport last drew on its own, once the run has ended and the window was
// left alone, must be the frame it draws when asked to.
TEST_F(GuiApp, AFinishedLabRunShowsItsResultsWithoutInputEvents) {
  const AppRun run = run_script(
      "kernel sort\n"
      "lab-size 2^21\n"  // a few hundred ms on the CPU: frames are drawn while it runs
      "nowait run\n"
      "idle-shot " + path("idle.png").string() + "\n"
      "viewport-shot " + path("drawn.png").string() + "\n"
      "print-lab\n"
      "quit\n",
      {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  EXPECT_NE(line_starting(run.out, "lab ").find("runs=1 last=cpu"), std::string::npos) << run.out;
  const Image idle = load_image(path("idle.png"));
  const Image drawn = load_image(path("drawn.png"));
  ASSERT_EQ(idle.width(), drawn.width());
  ASSERT_EQ(idle.height(), drawn.height());
  long long differing = 0;
  for (int y = 0; y < idle.height(); ++y) {
    const auto* a = idle.row<std::uint8_t>(y);
    const auto* b = drawn.row<std::uint8_t>(y);
    for (int i = 0; i < idle.width() * 3; ++i) differing += a[i] != b[i];
  }
  EXPECT_EQ(differing, 0) << "the frame left on screen after the run is not the run's result (idle.png vs "
                             "drawn.png in " << path("").string() << ")";
}

}  // namespace
}  // namespace ks::test
