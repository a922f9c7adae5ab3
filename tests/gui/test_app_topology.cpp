// The Topology panel in the desktop app under Xvfb: its menu entries, and a traffic file dropped on the
// window goes to the panel (the image stays), with the app drawing and quitting normally.
#include <fstream>

#include <regex>

#include "gui_app_fixture.hpp"

namespace ks::test {
namespace {

TEST_F(GuiApp, TopologyMenuEntriesAreThere) {
  const AppRun run = run_script("print-menus\nquit\n");
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  for (const char* entry : {"menu File/Open traffic dataset...", "menu File/Open traffic folder...",
                            "menu File/Export topology results...", "menu View/Topology panel [T]"})
    EXPECT_NE(run.out.find(entry), std::string::npos) << "missing: " << entry << "\n" << run.out;
}

TEST_F(GuiApp, ADroppedTrafficFileGoesToTheTopologyPanel) {
  const auto traffic = path("traffic.csv");
  std::ofstream(traffic) << "timestamp,src,dst,value\n0,a,b,5\n0,a,c,7\n1,c,d,2\n";
  const auto shot = path("topology.png");
  const AppRun run = run_script("menu View/Topology panel\nwait\ndrop " + traffic.string() +
                                "\nwait\nviewport-shot " + shot.string() + "\nprint-status\nquit\n");
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::string status = line_starting(run.out, "status ");
  EXPECT_NE(status.find("input=embedded sample"), std::string::npos) << "the image stays: " << status;
  EXPECT_TRUE(std::filesystem::exists(shot)) << run.out;
}

// Before Run, the panel says what an exhaustive sweep costs: its evaluations counted as the progress line counts
// them (every pass: the panel said 3.832e9 where the progress line said 11.50 G), and the time measured on
// this backend; a long one offers sampling instead (issue 15).
TEST_F(GuiApp, TheTopologyPanelEstimatesTheSweepBeforeRunAndOffersSampling) {
  const AppRun run = run_script(
      "topo generate gravity:n=14,t=1,seed=1\n"  // 14! placements x 2 configurations: hours on any CPU
      "topo add ring\n"
      "topo add mesh:2x7\n"
      "topo print\n"  // counted at once; the time is measured on the worker
      "topo wait\n"
      "topo print\n"
      "topo time-limit 0\n"
      "nowait topo run\n"
      "sleep 800\n"
      "topo print\n"
      "topo cancel\n"
      "topo wait\n"
      "menu View/Topology panel\n"  // opened on traffic: the sample stays out
      "click-button Sample instead\n"
      "topo print\n"
      "quit\n",
      {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const auto topo = lines_starting(run.out, "topo ");
  ASSERT_EQ(topo.size(), 4u) << run.out;
  EXPECT_NE(topo[0].find("estimate_s=none"), std::string::npos) << topo[0];
  std::smatch before, during;
  ASSERT_TRUE(std::regex_search(topo[1], before, std::regex(" evaluations=([^ ]+) per_pass=([^ ]+) estimate_s=([^ ]+)")))
      << topo[0];
  EXPECT_EQ(before[2], "1.744e+11") << "14! x 1 slice x 2 configurations a pass: " << topo[1];
  EXPECT_GT(std::stod(before[3]), 60.0) << "a long sweep: " << topo[1];
  ASSERT_TRUE(std::regex_search(topo[2], during, std::regex("_of_([^ ]+)_evaluations"))) << topo[2];
  EXPECT_EQ(during[1], before[1]) << "the panel's count and the progress line's:\n" << topo[1] << "\n" << topo[2];
  EXPECT_NE(topo[3].find("placements=sample:1000000 "), std::string::npos) << topo[3];
  EXPECT_NE(topo[3].find("estimate_s=none"), std::string::npos) << "sampling is not timed: " << topo[3];
}

}  // namespace
}  // namespace ks::test
