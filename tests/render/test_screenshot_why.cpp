// The Why section by name: `--screenshot --sections why` draws it (exit 0), and an unknown section name is
// refused with exit 2 before anything is written, the message listing "why" among the sections.
#ifdef KS_HAVE_SCREENSHOT
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "screenshot_run.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

TEST(ScreenshotWhy, TheWhySectionOpensByName) {
  test::TempDir dir;
  const auto out = dir / "why.png";
  EXPECT_EQ(test::run_screenshot({"--screenshot", out.string(), "--kernel", "box", "--backend", "cpu",
                                  "--device-model", "h100", "--block", "20x8", "--sections", "kernel,why",
                                  "--size", "900x600"}),
            0);
  EXPECT_TRUE(std::filesystem::exists(out));
}

TEST(ScreenshotWhy, AnUnknownSectionNamesTheKnownOnes) {
  test::TempDir dir;
  const auto out = dir / "bad.png";
  testing::internal::CaptureStderr();
  EXPECT_EQ(test::run_screenshot({"--screenshot", out.string(), "--kernel", "box", "--backend", "cpu",
                                  "--sections", "reasons"}),
            2);
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_NE(said.find("no section 'reasons'"), std::string::npos) << said;
  EXPECT_NE(said.find("why"), std::string::npos) << said;
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace ks
#endif
