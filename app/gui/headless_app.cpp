#include "gui/headless_app.hpp"

#include <cstdio>
#include <cstring>
#include <exception>
#include <initializer_list>

#include "core/error.hpp"
#include "gui/screenshot.hpp"

namespace ks::app {

namespace {

bool asks_for(int argc, char** argv, std::initializer_list<const char*> names) {
  for (int i = 1; i < argc; ++i)
    for (const char* name : names)
      if (std::strcmp(argv[i], name) == 0) return true;
  return false;
}

constexpr const char* kNoWindow = "this kernelscope was built without Qt 6, so it has no window";
constexpr const char* kForTheWindow =
    "install Qt 6 (Debian: qt6-base-dev libqt6opengl6-dev) and build again for the window";

}  // namespace

int headless_app_main(int argc, char** argv) {
  if (wants_screenshot(argc, argv)) {
    try {
      return screenshot_main(argc, argv);  // prints its own errors
    } catch (const std::exception& e) {
      std::fprintf(stderr, "kernelscope: error: %s. This is a bug of kernelscope; please report it\n", e.what());
      return 1;
    }
  }
  if (asks_for(argc, argv, {"-h", "--help", "--help-all"})) {
    std::printf("kernelscope: explore GPU kernels. %s: it renders frames of the app without a display.\n"
                "Usage: kernelscope --screenshot OUT.png [OPTIONS] [FILE]\n"
                "(%s.)\n\n%s",
                kNoWindow, kForTheWindow, screenshot_help().c_str());
    return 0;
  }
  if (asks_for(argc, argv, {"-v", "--version"})) {
    std::printf("kernelscope %s (without Qt 6: --screenshot only)\n", KS_VERSION);
    return 0;
  }
  std::fprintf(stderr, "kernelscope: error: %s: it only renders frames, with --screenshot OUT.png [OPTIONS] [FILE]. %s "
               "(kernelscope --help lists the --screenshot options)\n",
               kNoWindow, kForTheWindow);
  return exit_code_for(ErrorKind::Usage);
}

}  // namespace ks::app
