// The Topology panel in the desktop app under Xvfb: its menu entries, and a traffic file dropped on the
// window goes to the panel (the image stays), with the app drawing and quitting normally.
#include <fstream>

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

}  // namespace
}  // namespace ks::test
