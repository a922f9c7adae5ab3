#include "core/launch_geometry.hpp"

#include <algorithm>

namespace ks {

namespace {

int ceil_div(int a, int b) {
  return b > 0 ? (a + b - 1) / b : 0;
}

// Threads along one side of a block that own at least one pixel inside the image.
int busy_threads(int image_side, int block_start_pixel, int cells, int threads) {
  const int left = image_side - block_start_pixel;  // pixels from the block's first to the image's edge
  return std::clamp(ceil_div(std::max(left, 0), cells), 0, threads);
}

}  // namespace

int LaunchGeometry::grid_x() const noexcept {
  return ceil_div(ceil_div(width, cells_x), block.x);
}
int LaunchGeometry::grid_y() const noexcept {
  return ceil_div(ceil_div(height, cells_y), block.y);
}

LaunchGeometry window_launch(int width, int height, BlockShape block, int radius_x, int radius_y,
                             bool shared_tile) {
  LaunchGeometry g;
  g.width = width;
  g.height = height;
  g.block = block;
  g.radius_x = radius_x;
  g.radius_y = radius_y;
  g.shared_tile = shared_tile;
  g.how = shared_tile ? "one thread per pixel; each block loads its tile plus halo into shared memory first"
                      : "one thread per pixel; every tap read from global memory";
  return g;
}

PixelThread thread_of_pixel(const LaunchGeometry& g, int x, int y) {
  const int tx = x / g.cells_x, ty = y / g.cells_y;  // the global thread index
  return {tx / g.block.x, ty / g.block.y, tx % g.block.x, ty % g.block.y};
}

PixelRect block_rect(const LaunchGeometry& g, int block_x, int block_y) {
  const int w = g.block.x * g.cells_x, h = g.block.y * g.cells_y;
  return {block_x * w, block_y * h, (block_x + 1) * w, (block_y + 1) * h};
}

PixelRect tile_rect(const LaunchGeometry& g, int block_x, int block_y) {
  const PixelRect b = block_rect(g, block_x, block_y);
  const int hx = g.tile_halo_x(), hy = g.tile_halo_y();
  return {b.x0 - hx, b.y0 - hy, b.x1 + hx, b.y1 + hy};
}

PixelRect input_window(const LaunchGeometry& g, int x, int y) {
  return {x - g.radius_x, y - g.radius_y, x + g.radius_x + 1, y + g.radius_y + 1};
}

int idle_threads(const LaunchGeometry& g, int block_x, int block_y) {
  const PixelRect b = block_rect(g, block_x, block_y);
  const int busy_x = busy_threads(g.width, b.x0, g.cells_x, g.block.x);
  const int busy_y = busy_threads(g.height, b.y0, g.cells_y, g.block.y);
  return g.block.threads() - busy_x * busy_y;
}

long long idle_threads(const LaunchGeometry& g) {
  // Only the last column and the last row of blocks can be partial: count those, not every block.
  const int gx = g.grid_x(), gy = g.grid_y();
  if (gx == 0 || gy == 0) return 0;
  long long idle = 0;
  for (int bx = 0; bx < gx; ++bx) idle += idle_threads(g, bx, gy - 1);
  for (int by = 0; by + 1 < gy; ++by) idle += idle_threads(g, gx - 1, by);
  return idle;
}

}  // namespace ks
