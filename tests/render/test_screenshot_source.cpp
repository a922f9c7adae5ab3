// The Source section drawn headless through EGL: `--screenshot --sections source` of a stencil, a simulation
// and a lab kernel shows code in the syntax colours (CUDA's own words in theirs) in its window left of the
// sidebar, a comparison tints removed and added rows, and a variant the kernel does not have is refused with
// exit 2. The stencils run on a flat gray image, so that only the code has those colours.
#ifdef KS_HAVE_SCREENSHOT
#include <gtest/gtest.h>
#include <imgui.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "gui/screenshot.hpp"
#include "io/image_io.hpp"
#include "panels/source/source_section.hpp"
#include "render_test_support.hpp"
#include "screenshot_run.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

constexpr int kWidth = 1000, kHeight = 700, kSidebar = 380;

// screenshot_main over an argument list (screenshot_run.hpp).
const auto run = &test::run_screenshot;

test::Rgb rgb_of(ImVec4 c) {
  const ImU32 u = ImGui::ColorConvertFloat4ToU32(c);
  return {int(u & 0xff), int((u >> 8) & 0xff), int((u >> 16) & 0xff)};
}

// Pixels left of the sidebar (where the Source window is) within 2 of `colour` in every channel (text is drawn at
// full opacity).
int code_pixels(const Image& frame, test::Rgb colour) {
  int n = 0;
  for (int y = 0; y < frame.height(); ++y)
    for (int x = 0; x < frame.width() - kSidebar; ++x) {
      const test::Rgb p = test::rgb_at(frame, x, y);
      if (std::abs(p[0] - colour[0]) <= 2 && std::abs(p[1] - colour[1]) <= 2 &&
          std::abs(p[2] - colour[2]) <= 2)
        ++n;
    }
  return n;
}

// Pixels left of the sidebar where one channel clearly leads the other two, as the diff's row tints do; text
// colours are brighter than `below` in their leading channel, so only backgrounds count.
int tinted_pixels(const Image& frame, int channel, int below) {
  int n = 0;
  for (int y = 0; y < frame.height(); ++y)
    for (int x = 0; x < frame.width() - kSidebar; ++x) {
      const test::Rgb p = test::rgb_at(frame, x, y);
      const int lead = p[std::size_t(channel)];
      bool leads = lead < below;
      for (int c = 0; c < 3; ++c)
        if (c != channel) leads = leads && lead > p[std::size_t(c)] + 25;
      n += leads ? 1 : 0;
    }
  return n;
}

Image shoot(const test::TempDir& dir, const std::string& name, std::vector<std::string> extra) {
  const auto out = dir / (name + ".png"), flat = dir / "flat.png";
  if (!std::filesystem::exists(flat)) {
    Image gray(320, 240, 1, ElemType::U8);
    for (auto& v : gray.elements<std::uint8_t>()) v = 128;
    save_image(gray, flat);
  }
  std::vector<std::string> args{flat.string(),     "--screenshot",    out.string(),
                                "--sections",      "source",
                                "--size",          std::to_string(kWidth) + "x" + std::to_string(kHeight),
                                "--sidebar-width", std::to_string(kSidebar),
                                "--backend",       "cpu"};
  args.insert(args.end(), extra.begin(), extra.end());
  EXPECT_EQ(run(args), 0) << name;
  return convert_channels(load_image(out), 4);
}

TEST(ScreenshotSource, ShowsEachFamilysCodeInSyntaxColours) {
  test::TempDir dir;
  const test::Rgb keyword = rgb_of(ui::panels::source_token_colour(source::TokenKind::Keyword));
  const test::Rgb cuda = rgb_of(ui::panels::source_token_colour(source::TokenKind::Cuda));
  struct Case {
    const char* kernel;
    const char* variant;
    bool cuda_words;  // a CUDA file, so CUDA's words show near the kernel
  };
  for (const Case& c : {Case{"box", "tiled", true}, Case{"life", "naive", true},
                        Case{"matmul", "tiled", true}, Case{"median", "cpu", false}}) {
    const Image frame = shoot(dir, std::string(c.kernel) + "_" + c.variant,
                              {"--kernel", c.kernel, "--source-variant", c.variant});
    ASSERT_EQ(frame.width(), kWidth);
    EXPECT_GT(code_pixels(frame, keyword), 100) << c.kernel << " " << c.variant << ": no keywords";
    if (c.cuda_words) {
      EXPECT_GT(code_pixels(frame, cuda), 50) << c.kernel << " " << c.variant;
    }
  }
}

TEST(ScreenshotSource, TheRunningCpuReferenceIsShownByDefault) {
  test::TempDir dir;
  const Image frame = shoot(dir, "cpu", {"--kernel", "box"});
  EXPECT_GT(code_pixels(frame, rgb_of(ui::panels::source_token_colour(source::TokenKind::Keyword))), 100);
}

TEST(ScreenshotSource, ComparingTintsRemovedAndAddedRows) {
  test::TempDir dir;
  const Image alone = shoot(dir, "alone", {"--kernel", "box", "--source-variant", "tiled"});
  const Image compared =
      shoot(dir, "compared", {"--kernel", "box", "--source-variant", "tiled", "--source-compare", "naive"});
  const int red = 0, green = 1;
  EXPECT_LT(tinted_pixels(alone, red, 120), 200);
  EXPECT_LT(tinted_pixels(alone, green, 120), 200);
  EXPECT_GT(tinted_pixels(compared, red, 120), 2000);
  EXPECT_GT(tinted_pixels(compared, green, 120), 2000);
}

TEST(ScreenshotSource, AVariantTheKernelLacksExitsWithTwo) {
  test::TempDir dir;
  const auto out = dir / "bad.png";
  EXPECT_EQ(run({"--screenshot", out.string(), "--kernel", "median", "--sections", "source",
                 "--source-compare", "separable", "--backend", "cpu"}),
            2);
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace ks
#endif
