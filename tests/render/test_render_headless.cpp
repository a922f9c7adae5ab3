// The headless pieces: an EGL context without a display, offscreen frames of the asked size, ImGui drawn over the
// image, the colormap legend.
#include <imgui.h>

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "headless/egl_context.hpp"
#include "headless/offscreen_target.hpp"
#include "session/display_frame.hpp"
#include "render_test_support.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

TEST(Headless, EglGivesACoreContextAndSaysWhichPlatform) {
  ui::EglContext::Options options;
  options.platform = ui::egl_platform_from_environment();
  ui::EglContext egl(options);
  EXPECT_TRUE(egl.platform_name() == "NVIDIA EGL device" || egl.platform_name() == "Mesa surfaceless")
      << egl.platform_name();
  EXPECT_FALSE(egl.gl_renderer().empty());
  GLint major = 0, profile = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &profile);
  EXPECT_GE(major, 3);
  EXPECT_TRUE(profile & GL_CONTEXT_CORE_PROFILE_BIT);
}

TEST(Headless, UnknownPlatformNamesAreUsageErrors) {
  ::setenv("KS_EGL_PLATFORM", "wayland", 1);
  try {
    ui::egl_platform_from_environment();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("wayland"), std::string::npos);
  }
  ::unsetenv("KS_EGL_PLATFORM");
}

TEST(Headless, FramesHaveTheAskedSizeAndImpossibleSizesAreRefused) {
  auto r = test::make_renderer(123, 45);
  const Image frame = r.render(test::one_to_one_view(1, 1), {}, 1);
  EXPECT_EQ(frame.width(), 123);
  EXPECT_EQ(frame.height(), 45);
  EXPECT_EQ(frame.channels(), 4);
  EXPECT_TRUE(test::rgb_near(frame, 60, 20, {28, 28, 31}, 1));  // the background, nothing loaded
  for (auto [w, h] : {std::pair{0, 10}, std::pair{10, -1}, std::pair{1 << 20, 10}}) {
    try {
      ui::OffscreenTarget target(w, h);
      ADD_FAILURE() << w << "x" << h << " accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage) << e.full_message();
    }
  }
}

TEST(Headless, ImGuiDrawsOverTheImage) {
  const Image input = test::random_image(320, 200, 4, ElemType::U8, 21);
  ui::DisplayFrame f;
  f.input = &input;
  f.input_generation = 1;
  auto r = test::make_renderer(320, 200);
  r.renderer().update(f);
  const ui::ViewState view = test::one_to_one_view(320, 200);
  const Image plain = r.render(view, {}, 1);
  const Image with_window = r.render(view, [] {
    ImGui::SetNextWindowPos(ImVec2(10, 10));
    ImGui::SetNextWindowSize(ImVec2(150, 80));
    ImGui::Begin("Panel");
    ImGui::Text("kernelscope");
    ImGui::End();
  });
  // Inside the window: ImGui's dark window background, not the image; outside: the image, unchanged.
  const test::Rgb inside = test::rgb_at(with_window, 80, 60);
  EXPECT_NE(inside, test::rgb_at(plain, 80, 60));
  EXPECT_LT(inside[0] + inside[1] + inside[2], 3 * 60);
  for (int x : {200, 250, 310}) EXPECT_EQ(test::rgb_at(with_window, x, 150), test::rgb_at(plain, x, 150));
}

TEST(Headless, LegendShowsTheColormapBarOnlyForSingleChannelImages) {
  Image gray(640, 480, 1, ElemType::U8);
  for (int y = 0; y < 480; ++y)
    for (int x = 0; x < 640; ++x) gray.row<std::uint8_t>(y)[x] = std::uint8_t(x * 255 / 639);
  ui::DisplayFrame f;
  f.input = &gray;
  f.input_generation = 1;
  auto r = test::make_renderer(640, 480);
  r.renderer().update(f);
  ui::ViewState view = test::one_to_one_view(640, 480);
  view.colormap = ui::Colormap::Viridis;
  view.show_legend = true;
  const Image with_legend = r.render(view);
  // The bar's right end is viridis' last colour; look for it in the top-left corner, where the legend sits when
  // the image covers the whole frame (every corner would cover it alike).
  auto count_colour = [](const Image& frame, test::Rgb c) {
    int n = 0;
    for (int y = 0; y < 90; ++y)
      for (int x = 0; x < 400; ++x)
        if (test::rgb_near(frame, x, y, c, 6)) ++n;
    return n;
  };
  const test::Rgb last{0xFD, 0xE7, 0x25};
  view.show_legend = false;
  const Image without = r.render(view);
  // The image's left part holds values below 400/640 of the range, blue to green: viridis' yellow end can only
  // come from the bar. (The bar's outermost columns lie under its frame, so the colour seen is within a few
  // levels of the end.)
  EXPECT_GT(count_colour(with_legend, last), 5);
  EXPECT_EQ(count_colour(without, last), 0);

  Image rgba = test::random_image(640, 480, 4, ElemType::U8, 22);
  f.input = &rgba;
  f.input_generation = 2;
  r.renderer().update(f);
  view.show_legend = false;
  const Image colour_without = r.render(view);
  view.show_legend = true;
  EXPECT_TRUE(test::images_match(r.render(view), colour_without)) << "colour images have no legend";
}

}  // namespace
}  // namespace ks
