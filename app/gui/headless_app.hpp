#pragma once
// `kernelscope` where the build has the renderer (ImGui, EGL, GL) but no Qt 6 (KS_WITH_GUI=OFF, or Qt 6 not
// found; a GPU server, say): the program answers `--screenshot ...` exactly as the desktop app does (screenshot.hpp),
// `--help` and `--version`, and refuses everything else, since there is no window to open. headless_main.cpp is
// its main.

namespace ks::app {

// Returns the exit code: screenshot_main's for --screenshot; 0 for --help and --version; 2, with what to install
// for the window, for anything else.
int headless_app_main(int argc, char** argv);

}  // namespace ks::app
