#pragma once
// The fixture of the tests that run the real `kernelscope` window: an Xvfb server of the test's own, a temp
// folder (the app's settings file, HOME and XDG folders point there, so a user's settings are never touched) and
// a way to run a --script in the app. Tests skip when Xvfb is not installed.
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "app_process.hpp"
#include "support/test_support.hpp"
#include "xvfb_server.hpp"

namespace ks::test {

class GuiApp : public ::testing::Test {
 protected:
  static constexpr int kScreenWidth = 1600, kScreenHeight = 1000;
  static constexpr int kDefaultWindowWidth = 1280, kDefaultWindowHeight = 800;  // MainWindow's first size

  void SetUp() override;
  // The screen the Xvfb server has (a test of small screens overrides it).
  virtual std::pair<int, int> screen_size() const { return {kScreenWidth, kScreenHeight}; }

  // Runs the app with `script` (one command per line, see app/gui/script_runner.hpp) and `args` (a file to open,
  // --backend ...), with the settings in settings_path(); `environment` adds "NAME=value"s to the app's.
  AppRun run_script(const std::string& script, const std::vector<std::string>& args = {},
                    const std::vector<std::string>& environment = {});
  // Runs the app without a display server: --screenshot needs none.
  AppRun run_headless(const std::vector<std::string>& args);

  std::filesystem::path path(const std::string& name) const { return dir_ / name; }
  std::filesystem::path settings_path() const { return dir_ / "settings.ini"; }

 private:
  TempDir dir_;
  std::unique_ptr<XvfbServer> xvfb_;
};

// The first line of `out` that starts with `prefix`, or empty; every such line, in order.
std::string line_starting(const std::string& out, const std::string& prefix);
std::vector<std::string> lines_starting(const std::string& out, const std::string& prefix);

}  // namespace ks::test
