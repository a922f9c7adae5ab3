// Quitting while work runs is immediate (issue 15: it took about 2.3 s): the window cancels the session's work and
// the Topology document's sweep together, and the app joins workers that are already stopping.
#include <regex>

#include "gui_app_fixture.hpp"

namespace ks::test {
namespace {

TEST_F(GuiApp, QuittingDuringWorkClosesWithinASecond) {
  const AppRun run = run_script(
      // An exhaustive sweep of 12 nodes on three configurations: minutes on this backend.
      "topo generate gravity:n=12,t=1,seed=1\n"
      "topo add ring\n"
      "topo add torus:4x3\n"
      "topo add mesh:3x4\n"
      "topo time-limit 0\n"
      "topo wait\n"
      "nowait topo run\n"
      // A simulation playing, with many steps per frame.
      "kernel heat\n"
      "sim grid 2048x2048\n"
      "sim steps-per-frame 1000\n"
      "sleep 1500\n"
      "topo print\n"
      "sim print\n"
      "quit\n",
      {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  EXPECT_NE(line_starting(run.out, "topo ").find("busy=on"), std::string::npos) << "the sweep ran: " << run.out;
  EXPECT_NE(line_starting(run.out, "sim ").find("playing=on"), std::string::npos) << run.out;
  std::smatch m;
  const std::string quit = line_starting(run.out, "quit: closed in ");
  ASSERT_TRUE(std::regex_search(quit, m, std::regex("closed in ([0-9]+) ms"))) << run.out;
  EXPECT_LT(std::stoi(m[1]), 1000) << quit;
}

}  // namespace
}  // namespace ks::test
