#pragma once
// Helpers of the render tests: reading pixels of a frame, what colour a value should show as, and one headless
// renderer per test.
#include <array>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "core/image.hpp"
#include "headless/headless_renderer.hpp"

namespace ks::test {

using Rgb = std::array<int, 3>;

// The RGB of pixel (x, y) of an RGBA8 frame (top row first).
Rgb rgb_at(const Image& frame, int x, int y);

// Each channel within `tolerance` of the expected colour; the message names the pixel and both colours.
::testing::AssertionResult rgb_near(const Image& frame, int x, int y, Rgb expected, int tolerance = 0);

// How many different RGB colours a frame holds (a blank frame has 1).
std::size_t distinct_colours(const Image& frame);

// The 8-bit gray a value shows as over [lo, hi] (the shader's arithmetic: linear, saturated, rounded).
int gray_of(double value, double lo, double hi);

// A view that shows an image of this size pixel for pixel in a viewport of the same size, without the legend.
ui::ViewState one_to_one_view(int width, int height);

// A headless renderer of width x height on the platform KS_EGL_PLATFORM names (Auto when unset).
ui::HeadlessRenderer make_renderer(int width, int height, ui::FrameRenderer::Options options = {});

}  // namespace ks::test
