#include "gui_app_fixture.hpp"

#include <fstream>
#include <sstream>

namespace ks::test {

namespace {

// Seconds the script runner allows before it gives up (exit code 3); the process limit lies above it.
constexpr int kScriptLimitS = 90;

std::vector<std::string> private_folders(const std::filesystem::path& dir) {
  return {"HOME=" + dir.string(), "XDG_CONFIG_HOME=" + (dir / "config").string(),
          "XDG_RUNTIME_DIR=" + dir.string(), "XDG_CACHE_HOME=" + (dir / "cache").string()};
}

}  // namespace

void GuiApp::SetUp() {
  const std::string why = XvfbServer::unavailable_reason();
  if (!why.empty()) GTEST_SKIP() << why;
  const auto [width, height] = screen_size();
  xvfb_ = std::make_unique<XvfbServer>(width, height);
}

AppRun GuiApp::run_script(const std::string& script, const std::vector<std::string>& args,
                          const std::vector<std::string>& environment) {
  const auto script_path = dir_ / "script.txt";
  std::ofstream(script_path) << script;
  AppLaunch launch;
  launch.args = {"--script", script_path.string(), "--settings", settings_path().string(), "--script-time-limit",
                 std::to_string(kScriptLimitS)};
  launch.args.insert(launch.args.end(), args.begin(), args.end());
  launch.environment = private_folders(dir_.path());
  launch.environment.push_back("DISPLAY=" + xvfb_->display());
  launch.environment.push_back("QT_QPA_PLATFORM=xcb");
  launch.environment.insert(launch.environment.end(), environment.begin(), environment.end());
  launch.cwd = dir_.path();
  launch.time_limit = std::chrono::seconds(kScriptLimitS + 30);
  return run_app(launch);
}

AppRun GuiApp::run_headless(const std::vector<std::string>& args) {
  AppLaunch launch;
  launch.args = args;
  launch.environment = private_folders(dir_.path());
  launch.environment.push_back("DISPLAY=");
  launch.environment.push_back("WAYLAND_DISPLAY=");
  launch.cwd = dir_.path();
  launch.time_limit = std::chrono::seconds(kScriptLimitS);
  return run_app(launch);
}

std::vector<std::string> lines_starting(const std::string& out, const std::string& prefix) {
  std::vector<std::string> found;
  std::stringstream lines(out);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(prefix, 0) == 0) found.push_back(line);
  return found;
}

std::string line_starting(const std::string& out, const std::string& prefix) {
  const std::vector<std::string> found = lines_starting(out, prefix);
  return found.empty() ? std::string() : found.front();
}

}  // namespace ks::test
