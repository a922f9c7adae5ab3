#include "render/world_window.hpp"

#include <algorithm>
#include <cmath>

namespace ks::ui {

int cells_per_pixel_at(double zoom) {
  if (!(zoom > 0)) return sim::kMaxCellsPerPixel;
  if (zoom >= 1) return 1;
  // The small tolerance keeps a zoom of exactly 1/n (stored as a float) at n cells rather than n - 1.
  const double cells = std::floor(1.0 / zoom + 1e-6);
  return int(std::clamp(cells, 1.0, double(sim::kMaxCellsPerPixel)));
}

namespace {

// Along one axis: the first cell of the window and its pixels, for the visible image coordinates [lo, hi).
void window_axis(double lo, double hi, int cells, int step, int& origin, int& pixels) {
  long long begin = (long long)std::floor(std::max(lo, 0.0));
  long long end = (long long)std::ceil(std::min(hi, double(cells)));
  if (end <= begin) {  // nothing of the world on screen along this axis: its nearest cell
    begin = std::clamp<long long>((long long)std::floor(lo), 0, cells - 1);
    end = begin + 1;
  }
  begin = begin / step * step;
  origin = int(begin);
  pixels = int(std::min<long long>((end - begin + step - 1) / step, sim::kMaxDensityWindowSide));
}

}  // namespace

sim::DensityWindow world_window(const ViewState& view, Size2 viewport, Size2 world) {
  sim::DensityWindow w;
  w.cells_per_pixel = cells_per_pixel_at(view.zoom);
  const Vec2 a = screen_to_image(view, viewport, {0, 0});
  const Vec2 b = screen_to_image(view, viewport, {double(viewport.width), double(viewport.height)});
  window_axis(a.x, b.x, std::max(world.width, 1), w.cells_per_pixel, w.x0, w.width);
  window_axis(a.y, b.y, std::max(world.height, 1), w.cells_per_pixel, w.y0, w.height);
  return w;
}

}  // namespace ks::ui
