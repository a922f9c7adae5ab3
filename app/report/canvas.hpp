#pragma once
// A tiny software raster over a ks::Image (RGB, 8 bits): what the CLI's charts are drawn with, so they need
// no GL, no display and no GUI library. Coordinates are pixels, y down; anything outside the image is
// clipped. Lines are anti-aliased (coverage of a round-capped segment of the given width), so log-log slopes
// look straight.
#include <cstdint>

#include "core/image.hpp"

namespace ks::report {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb&) const = default;
};

struct Rect {
  double x = 0, y = 0, w = 0, h = 0;
  double right() const { return x + w; }
  double bottom() const { return y + h; }
  bool overlaps(const Rect& o) const {
    return x < o.right() && o.x < right() && y < o.bottom() && o.y < bottom();
  }
  bool inside(const Rect& o) const {
    return x >= o.x && y >= o.y && right() <= o.right() && bottom() <= o.bottom();
  }
};

class Canvas {
 public:
  Canvas(int width, int height, Rgb background);

  int width() const noexcept { return image_.width(); }
  int height() const noexcept { return image_.height(); }
  const Image& image() const noexcept { return image_; }
  Image take_image() && { return std::move(image_); }

  Rgb pixel(int x, int y) const;
  // Mixes `color` into the pixel with weight `alpha` in [0, 1].
  void blend(int x, int y, Rgb color, double alpha);
  void fill_rect(const Rect& r, Rgb color);
  void stroke_rect(const Rect& r, Rgb color, double width = 1.0);
  // A segment `width` pixels wide with round caps; `dash` > 0 draws dashes and gaps of that length.
  void line(double x0, double y0, double x1, double y1, Rgb color, double width = 1.0, double dash = 0);
  void fill_circle(double cx, double cy, double radius, Rgb color);
  void stroke_circle(double cx, double cy, double radius, Rgb color, double width = 1.0);

 private:
  Image image_;
};

}  // namespace ks::report
