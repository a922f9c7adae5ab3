#pragma once
// Pan and zoom as plain arithmetic, without GL: the viewport (Qt), the headless renderer and the tests share it.
// Image coordinates: pixels, (0,0) the top-left corner of pixel (0,0), so pixel (x, y) covers [x, x+1) x [y, y+1).
// Screen coordinates: framebuffer pixels, (0,0) the top-left corner of the viewport, y down.
#include "session/display_frame.hpp"

namespace ks::ui {

struct Vec2 {
  double x = 0, y = 0;
};

struct Size2 {
  int width = 0, height = 0;
};

// The zoom limits of wheel and key zooming: 1/128 shows the largest Life world, 65536 cells a side, in 512 screen
// pixels (so Fit shows all of it), 256 shows a pixel as a large square with room for its value.
inline constexpr double kMinZoom = 1.0 / 128.0;
inline constexpr double kMaxZoom = 256.0;

Vec2 image_to_screen(const ViewState& view, Size2 viewport, Vec2 image);
Vec2 screen_to_image(const ViewState& view, Size2 viewport, Vec2 screen);

// The whole image inside the viewport, centred, as large as fits (may magnify a small image). A zero-sized image or
// viewport leaves the view as it was.
ViewState fit(ViewState view, Size2 image, Size2 viewport);
// One image pixel per framebuffer pixel, keeping the image point at the viewport's centre where it is.
ViewState one_to_one(ViewState view);
// Multiplies the zoom by `factor` (limited to [kMinZoom, kMaxZoom]) while the image point under `cursor` (screen)
// stays under the cursor: what a wheel step does.
ViewState zoom_around(ViewState view, Size2 viewport, double factor, Vec2 cursor);
// Moves the image with the pointer: a drag of `delta` screen pixels.
ViewState pan(ViewState view, Vec2 delta_screen);

// Pixel (x, y) under a screen position, or false when the position is outside the image.
struct PixelHit {
  bool inside = false;
  int x = 0, y = 0;
};
PixelHit pixel_at(const ViewState& view, Size2 viewport, Size2 image, Vec2 screen);

// The split line's screen x (split_position of the free area left of the sidebar), and whether a screen x shows
// the input (left of the line) when the split is on.
double split_screen_x(const ViewState& view, Size2 viewport);
bool shows_input_at(const ViewState& view, Size2 viewport, double screen_x);

}  // namespace ks::ui
