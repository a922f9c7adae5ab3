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

}  // namespace
}  // namespace ks::test
