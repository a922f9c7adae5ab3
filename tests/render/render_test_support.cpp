#include "render_test_support.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

namespace ks::test {

Rgb rgb_at(const Image& frame, int x, int y) {
  const std::uint8_t* p = frame.row<std::uint8_t>(y) + std::size_t(x) * 4;
  return {p[0], p[1], p[2]};
}

::testing::AssertionResult rgb_near(const Image& frame, int x, int y, Rgb expected, int tolerance) {
  if (x < 0 || y < 0 || x >= frame.width() || y >= frame.height())
    return ::testing::AssertionFailure() << fmt::format("pixel ({}, {}) is outside the {}x{} frame", x, y,
                                                        frame.width(), frame.height());
  const Rgb got = rgb_at(frame, x, y);
  for (int c = 0; c < 3; ++c)
    if (std::abs(got[std::size_t(c)] - expected[std::size_t(c)]) > tolerance)
      return ::testing::AssertionFailure()
             << fmt::format("pixel ({}, {}) is ({}, {}, {}), expected ({}, {}, {}) within {}", x, y, got[0], got[1],
                            got[2], expected[0], expected[1], expected[2], tolerance);
  return ::testing::AssertionSuccess();
}

std::size_t distinct_colours(const Image& frame) {
  std::set<std::uint32_t> colours;
  for (int y = 0; y < frame.height(); ++y)
    for (int x = 0; x < frame.width(); ++x) {
      const Rgb c = rgb_at(frame, x, y);
      colours.insert(std::uint32_t(c[0]) << 16 | std::uint32_t(c[1]) << 8 | std::uint32_t(c[2]));
    }
  return colours.size();
}

int gray_of(double value, double lo, double hi) {
  const double t = std::clamp((value - lo) / (hi - lo), 0.0, 1.0);
  return int(std::lround(t * 255.0));
}

ui::ViewState one_to_one_view(int width, int height) {
  ui::ViewState view;
  view.zoom = 1.0f;
  view.center_x = 0.5f * float(width);
  view.center_y = 0.5f * float(height);
  view.show_legend = false;  // the legend would cover part of a small frame
  return view;
}

ui::HeadlessRenderer make_renderer(int width, int height, ui::FrameRenderer::Options options) {
  ui::EglContext::Options egl;
  egl.platform = ui::egl_platform_from_environment();
  return ui::HeadlessRenderer(width, height, egl, options);
}

}  // namespace ks::test
