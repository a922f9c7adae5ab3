#include "report/canvas.hpp"

#include <algorithm>
#include <cmath>

namespace ks::report {

namespace {
// Coverage of a pixel whose centre is `distance` from an edge at `half_width`: a one-pixel linear ramp.
double coverage(double distance, double half_width) {
  return std::clamp(half_width + 0.5 - distance, 0.0, 1.0);
}
}  // namespace

Canvas::Canvas(int width, int height, Rgb background) : image_(width, height, 3, ElemType::U8) {
  fill_rect({0, 0, double(width), double(height)}, background);
}

Rgb Canvas::pixel(int x, int y) const {
  const auto* p = image_.row<std::uint8_t>(y) + 3 * std::size_t(x);
  return {p[0], p[1], p[2]};
}

void Canvas::blend(int x, int y, Rgb c, double alpha) {
  if (x < 0 || y < 0 || x >= width() || y >= height() || alpha <= 0) return;
  alpha = std::min(alpha, 1.0);
  auto* p = image_.row<std::uint8_t>(y) + 3 * std::size_t(x);
  auto mix = [alpha](std::uint8_t under, std::uint8_t over) {
    return std::uint8_t(std::lround(double(under) + (double(over) - double(under)) * alpha));
  };
  p[0] = mix(p[0], c.r);
  p[1] = mix(p[1], c.g);
  p[2] = mix(p[2], c.b);
}

void Canvas::fill_rect(const Rect& r, Rgb color) {
  const int x0 = std::max(0, int(std::lround(r.x))), x1 = std::min(width(), int(std::lround(r.right())));
  const int y0 = std::max(0, int(std::lround(r.y))), y1 = std::min(height(), int(std::lround(r.bottom())));
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) blend(x, y, color, 1.0);
}

void Canvas::stroke_rect(const Rect& r, Rgb color, double w) {
  line(r.x, r.y, r.right(), r.y, color, w);
  line(r.right(), r.y, r.right(), r.bottom(), color, w);
  line(r.right(), r.bottom(), r.x, r.bottom(), color, w);
  line(r.x, r.bottom(), r.x, r.y, color, w);
}

void Canvas::line(double x0, double y0, double x1, double y1, Rgb color, double w, double dash) {
  const double dx = x1 - x0, dy = y1 - y0, length = std::hypot(dx, dy);
  if (dash > 0 && length > dash) {
    // Dashes are short solid segments: each is drawn like a line of its own.
    for (double t = 0; t < length; t += 2 * dash) {
      const double t1 = std::min(length, t + dash);
      line(x0 + dx * t / length, y0 + dy * t / length, x0 + dx * t1 / length, y0 + dy * t1 / length, color,
           w);
    }
    return;
  }
  const double half = w / 2;
  const int bx0 = int(std::floor(std::min(x0, x1) - half - 1)),
            bx1 = int(std::ceil(std::max(x0, x1) + half + 1));
  const int by0 = int(std::floor(std::min(y0, y1) - half - 1)),
            by1 = int(std::ceil(std::max(y0, y1) + half + 1));
  for (int y = std::max(0, by0); y <= std::min(height() - 1, by1); ++y) {
    for (int x = std::max(0, bx0); x <= std::min(width() - 1, bx1); ++x) {
      // Distance from the pixel's centre to the segment.
      const double px = x + 0.5 - x0, py = y + 0.5 - y0;
      const double t = length > 0 ? std::clamp((px * dx + py * dy) / (length * length), 0.0, 1.0) : 0.0;
      const double d = std::hypot(px - t * dx, py - t * dy);
      blend(x, y, color, coverage(d, half));
    }
  }
}

void Canvas::fill_circle(double cx, double cy, double radius, Rgb color) {
  for (int y = int(std::floor(cy - radius - 1)); y <= int(std::ceil(cy + radius + 1)); ++y)
    for (int x = int(std::floor(cx - radius - 1)); x <= int(std::ceil(cx + radius + 1)); ++x)
      blend(x, y, color, coverage(std::hypot(x + 0.5 - cx, y + 0.5 - cy), radius));
}

void Canvas::stroke_circle(double cx, double cy, double radius, Rgb color, double w) {
  for (int y = int(std::floor(cy - radius - w)); y <= int(std::ceil(cy + radius + w)); ++y)
    for (int x = int(std::floor(cx - radius - w)); x <= int(std::ceil(cx + radius + w)); ++x)
      blend(x, y, color, coverage(std::abs(std::hypot(x + 0.5 - cx, y + 0.5 - cy) - radius), w / 2));
}

}  // namespace ks::report
