// The Source section in the real window under Xvfb, opened with the mouse: the sidebar's headers are 23
// logical pixels apart in ImGui's built-in font; with Kernel, Launch and Timing collapsed, Source is the
// sixth header. Once it is open, the running variant's code shows in the syntax colours (CUDA-free here: the
// CPU reference's keywords) and the window keeps running.
#include <imgui.h>

#include <cstdint>
#include <cstdlib>

#include "core/image.hpp"
#include "gui_app_fixture.hpp"
#include "io/image_io.hpp"
#include "panels/source/source_section.hpp"

namespace ks::test {
namespace {

// Pixels of the rightmost `width` columns within 2 of the colour `c` in every channel.
int pixels_of_colour(const Image& shot, ImVec4 c, int width) {
  const ImU32 u = ImGui::ColorConvertFloat4ToU32(c);
  const int want[3] = {int(u & 0xff), int((u >> 8) & 0xff), int((u >> 16) & 0xff)};
  const Image rgb = convert_channels(shot, 3);
  int n = 0;
  for (int y = 0; y < rgb.height(); ++y) {
    const std::uint8_t* row = rgb.row<std::uint8_t>(y);
    for (int x = rgb.width() - width; x < rgb.width(); ++x) {
      bool near = true;
      for (int k = 0; k < 3; ++k) near = near && std::abs(int(row[x * 3 + k]) - want[k]) <= 2;
      n += near ? 1 : 0;
    }
  }
  return n;
}

TEST_F(GuiApp, TheSourceSectionOpensWithTheMouseAndShowsColouredCode) {
  const AppRun run = run_script(
      "backend cpu\n"
      "run\n"
      "window-shot " +
      path("closed.png").string() +
      "\n"
      "click 1040 17\n"   // Kernel collapses
      "click 1040 40\n"   // Launch collapses
      "click 1040 63\n"   // Timing collapses
      "click 1040 132\n"  // Source (below Device and View) opens
      "window-shot " +
      path("open.png").string() +
      "\n"
      "quit\n");
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const ImVec4 keyword = ui::panels::source_token_colour(source::TokenKind::Keyword);
  const int before = pixels_of_colour(load_image(path("closed.png")), keyword, 370);
  const int after = pixels_of_colour(load_image(path("open.png")), keyword, 370);
  EXPECT_LT(before, 30) << "keyword blue before the section opened";
  EXPECT_GT(after, 200) << "the Source section did not open or shows no keywords";
}

}  // namespace
}  // namespace ks::test
