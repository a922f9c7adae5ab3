// `kernelscope` as a build without Qt 6 makes it (app/gui/headless_app: a GPU server has the renderer and no Qt):
// --screenshot writes the frame as the Qt app's does, --help lists the --screenshot options and --version answers
// (exit 0), and anything that would open the window is refused with exit 2, saying what to install. The same
// function is the whole program there (app/gui/headless_main.cpp), so these run in every build.
#ifdef KS_HAVE_SCREENSHOT
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "gui/headless_app.hpp"
#include "io/image_io.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

struct Outcome {
  int code = 0;
  std::string out, err;
};

Outcome run_headless(std::vector<std::string> args) {
  args.insert(args.begin(), "kernelscope");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  Outcome o;
  o.code = app::headless_app_main(int(argv.size()), argv.data());
  o.out = testing::internal::GetCapturedStdout();
  o.err = testing::internal::GetCapturedStderr();
  return o;
}

TEST(HeadlessApp, ScreenshotWritesTheFrame) {
  test::TempDir dir;
  const auto out = dir / "box.png";
  const Outcome o = run_headless({"--screenshot", out.string(), "--kernel", "box", "--backend", "cpu", "--size",
                                  "320x200", "--no-panels"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("kernelscope: wrote " + out.string() + " (320x200"), std::string::npos) << o.out;
  const Image png = load_image(out);
  EXPECT_EQ(png.width(), 320);
  EXPECT_EQ(png.height(), 200);
}

TEST(HeadlessApp, ABadScreenshotRequestIsExitTwoAsInTheQtApp) {
  test::TempDir dir;
  const Outcome o = run_headless({"--screenshot", (dir / "x.png").string(), "--kernel", "nosuchkernel"});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("kernelscope: error: "), std::string::npos) << o.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "x.png"));
}

TEST(HeadlessApp, HelpListsTheScreenshotOptionsAndSaysThereIsNoWindow) {
  const Outcome o = run_headless({"--help"});
  EXPECT_EQ(o.code, 0);
  for (const char* words : {"built without Qt 6", "kernelscope --screenshot OUT.png", "--kernel-file", "--compare",
                            "--show-difference", "--counters", "--sections", "qt6-base-dev"})
    EXPECT_NE(o.out.find(words), std::string::npos) << words << " in:\n" << o.out;
  const Outcome v = run_headless({"--version"});
  EXPECT_EQ(v.code, 0);
  EXPECT_EQ(v.out.rfind(std::string("kernelscope ") + KS_VERSION, 0), 0u) << v.out;
}

TEST(HeadlessApp, WhatWouldOpenTheWindowIsRefusedWithWhatToInstall) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{}, {"photo.png"}, {"--playlist", "naive-tiled-separable"}}) {
    const Outcome o = run_headless(args);
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.err.find("built without Qt 6, so it has no window"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("--screenshot OUT.png"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("qt6-base-dev libqt6opengl6-dev"), std::string::npos) << o.err;
  }
}

}  // namespace
}  // namespace ks
#endif
