#pragma once
// `kernelscope --screenshot ...` inside the test process: screenshot_main over an argument list, as the app's
// main would call it (exit code 0 written, 2 a bad request, 1 a runtime failure).
#ifdef KS_HAVE_SCREENSHOT
#include <string>
#include <vector>

#include "gui/screenshot.hpp"

namespace ks::test {

inline int run_screenshot(std::vector<std::string> args) {
  args.insert(args.begin(), "kernelscope");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return app::screenshot_main(int(argv.size()), argv.data());
}

}  // namespace ks::test
#endif
