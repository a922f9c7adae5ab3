// The Source section in the real window under Xvfb, opened with the mouse: the sidebar's headers are 23
// logical pixels apart in ImGui's built-in font; with Kernel, Launch and Timing collapsed, Source is the
// sixth header. Once it is open, the running variant's code shows in its own window left of the sidebar, in the
// syntax colours (CUDA-free here: the CPU reference's keywords), with its lines whole, and the window keeps
// running. A flat gray image keeps the viewport free of those colours.
#include <imgui.h>

#include <cstdint>
#include <cstdlib>

#include "core/image.hpp"
#include "gui_app_fixture.hpp"
#include "io/image_io.hpp"
#include "panels/source/source_section.hpp"

namespace ks::test {
namespace {

constexpr int kSidebar = 380;  // the sidebar's default width at the default text size

// Where the colour `c` (within 2 in every channel) shows left of the sidebar: the count of such pixels and the
// leftmost and rightmost columns that hold one.
struct ColourSpan {
  int pixels = 0, left = -1, right = -1;
};
ColourSpan colour_left_of_sidebar(const Image& shot, ImVec4 c) {
  const ImU32 u = ImGui::ColorConvertFloat4ToU32(c);
  const int want[3] = {int(u & 0xff), int((u >> 8) & 0xff), int((u >> 16) & 0xff)};
  const Image rgb = convert_channels(shot, 3);
  ColourSpan span;
  for (int y = 0; y < rgb.height(); ++y) {
    const std::uint8_t* row = rgb.row<std::uint8_t>(y);
    for (int x = 0; x < rgb.width() - kSidebar; ++x) {
      bool near = true;
      for (int k = 0; k < 3; ++k) near = near && std::abs(int(row[x * 3 + k]) - want[k]) <= 2;
      if (!near) continue;
      ++span.pixels;
      span.left = span.left < 0 ? x : std::min(span.left, x);
      span.right = std::max(span.right, x);
    }
  }
  return span;
}

TEST_F(GuiApp, TheSourceSectionOpensWithTheMouseAndShowsColouredCode) {
  const auto flat = path("flat.png");
  Image gray(640, 480, 1, ElemType::U8);
  for (auto& v : gray.elements<std::uint8_t>()) v = 128;
  save_image(gray, flat);
  const AppRun run = run_script(
      "open " + flat.string() + "\n"
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
  const Image closed = load_image(path("closed.png")), open = load_image(path("open.png"));
  EXPECT_LT(colour_left_of_sidebar(closed, keyword).pixels, 30) << "keyword blue before the section opened";
  EXPECT_GT(colour_left_of_sidebar(open, keyword).pixels, 200) << "the Source window did not open or shows no keywords";
}

}  // namespace
}  // namespace ks::test
