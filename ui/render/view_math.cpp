#include "render/view_math.hpp"

#include <algorithm>
#include <cmath>

namespace ks::ui {

Vec2 image_to_screen(const ViewState& view, Size2 viewport, Vec2 image) {
  return {(image.x - view.center_x) * view.zoom + 0.5 * viewport.width,
          (image.y - view.center_y) * view.zoom + 0.5 * viewport.height};
}

Vec2 screen_to_image(const ViewState& view, Size2 viewport, Vec2 screen) {
  return {(screen.x - 0.5 * viewport.width) / view.zoom + view.center_x,
          (screen.y - 0.5 * viewport.height) / view.zoom + view.center_y};
}

ViewState fit(ViewState view, Size2 image, Size2 viewport) {
  if (image.width <= 0 || image.height <= 0 || viewport.width <= 0 || viewport.height <= 0) return view;
  const double zoom = std::min(double(viewport.width) / image.width, double(viewport.height) / image.height);
  view.zoom = float(std::clamp(zoom, kMinZoom, kMaxZoom));
  view.center_x = 0.5f * float(image.width);
  view.center_y = 0.5f * float(image.height);
  return view;
}

ViewState one_to_one(ViewState view) {
  view.zoom = 1.0f;
  return view;
}

ViewState zoom_around(ViewState view, Size2 viewport, double factor, Vec2 cursor) {
  if (!(factor > 0)) return view;
  const Vec2 anchor = screen_to_image(view, viewport, cursor);
  view.zoom = float(std::clamp(double(view.zoom) * factor, kMinZoom, kMaxZoom));
  // The anchor must map back to the cursor: cursor = (anchor - center) * zoom + viewport / 2.
  view.center_x = float(anchor.x - (cursor.x - 0.5 * viewport.width) / view.zoom);
  view.center_y = float(anchor.y - (cursor.y - 0.5 * viewport.height) / view.zoom);
  return view;
}

ViewState pan(ViewState view, Vec2 delta_screen) {
  view.center_x -= float(delta_screen.x / view.zoom);
  view.center_y -= float(delta_screen.y / view.zoom);
  return view;
}

PixelHit pixel_at(const ViewState& view, Size2 viewport, Size2 image, Vec2 screen) {
  const Vec2 p = screen_to_image(view, viewport, screen);
  const double fx = std::floor(p.x), fy = std::floor(p.y);
  if (fx < 0 || fy < 0 || fx >= image.width || fy >= image.height) return {};
  return {true, int(fx), int(fy)};
}

double split_screen_x(const ViewState& view, Size2 viewport) {
  const double free = view.free_width > 0 ? std::min(double(view.free_width), double(viewport.width)) : viewport.width;
  return double(std::clamp(view.split_position, 0.0f, 1.0f)) * free;
}

bool shows_input_at(const ViewState& view, Size2 viewport, double screen_x) {
  return view.split && screen_x < split_screen_x(view, viewport);
}

}  // namespace ks::ui
