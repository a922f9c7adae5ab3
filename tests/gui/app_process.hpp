#pragma once
// Runs the desktop app `kernelscope` (KS_APP_PATH) as a person would start it, on a given X display, capturing
// stdout, stderr and the exit code; a run that outlives its time limit is killed and says so.
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace ks::test {

struct AppRun {
  int exit_code = -1;  // the process's exit status; 128 + signal when a signal ended it
  bool timed_out = false;
  std::string out;
  std::string err;
  std::string describe() const;  // for failure messages: the code and both streams
};

struct AppLaunch {
  std::vector<std::string> args;          // after the program name
  std::vector<std::string> environment;   // "NAME=value", added to (or replacing in) this process's environment
  std::filesystem::path cwd;              // where it runs and where the capture files go
  std::chrono::seconds time_limit{120};
};

AppRun run_app(const AppLaunch& launch);

// The path of a program on PATH, or empty.
std::filesystem::path find_program(const std::string& name);

}  // namespace ks::test
