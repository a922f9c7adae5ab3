#pragma once
// How a 2-D launch maps an image (or a simulation's grid) to blocks and threads: the arithmetic the kernels'
// host code launches with (stencil/cuda/naive_window.cu and tiled_window.cu take their grid and shared tile
// from here), and what the launch overlay draws. No CUDA: it works on a machine without a GPU. Rectangles are
// in pixels, half-open ([x0, x1) x [y0, y1)), and not clipped to the image: a block of the last column
// reaches past the right edge (its threads there are idle), a halo past the border (the border rule supplies
// those pixels).
#include <string>

#include "core/launch_shape.hpp"

namespace ks {

struct PixelRect {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  int width() const noexcept { return x1 - x0; }
  int height() const noexcept { return y1 - y0; }
  bool operator==(const PixelRect&) const = default;
};

struct LaunchGeometry {
  int width = 0, height = 0;  // the image the launch covers
  BlockShape block;
  int cells_x = 1, cells_y = 1;    // outputs per thread: 1 x 1, or a strip (heat/Gray-Scott "strip": 4 x 16)
  int radius_x = 0, radius_y = 0;  // the input window around each output: (2 rx + 1) x (2 ry + 1)
  bool cross = false;  // the window is the 5-point cross of radius 1 (heat, Gray-Scott), not the whole square
  bool shared_tile = false;  // each block first loads its pixels plus the halo into shared memory
  // Columns and rows the tile reaches past the block's pixels; -1: the radius. Wider than the radius where a
  // kernel loads whole aligned words or vectors (the tiled median and the multi-output window kernels).
  int halo_x = -1, halo_y = -1;
  std::string how;           // in words: "one thread per pixel, every tap read from global memory"

  int grid_x() const noexcept;  // ceil(ceil(width / cells_x) / block.x)
  int grid_y() const noexcept;
  long long blocks() const noexcept { return 1LL * grid_x() * grid_y(); }
  long long threads() const noexcept { return blocks() * block.threads(); }
  int tile_halo_x() const noexcept { return halo_x >= 0 ? halo_x : radius_x; }
  int tile_halo_y() const noexcept { return halo_y >= 0 ? halo_y : radius_y; }
  int tile_width() const noexcept {
    return block.x * cells_x + 2 * tile_halo_x();
  }  // the shared tile, halo included
  int tile_height() const noexcept { return block.y * cells_y + 2 * tile_halo_y(); }
};

// Why a launch picture on the CPU backend shows no blocks (the stencils' and the simulations' pictures say it).
inline constexpr const char* kCpuHasNoBlocks =
    "the CPU backend has no blocks: choose a device model in the Launch section to see a CUDA variant's launch";

// The one-thread-per-output launch of (2 rx + 1) x (2 ry + 1) windows, with or without the shared tile.
LaunchGeometry window_launch(int width, int height, BlockShape block, int radius_x, int radius_y,
                             bool shared_tile);

// Which block and thread compute pixel (x, y) (inside the image).
struct PixelThread {
  int block_x = 0, block_y = 0, thread_x = 0, thread_y = 0;
  bool operator==(const PixelThread&) const = default;
};
PixelThread thread_of_pixel(const LaunchGeometry& g, int x, int y);

PixelRect block_rect(const LaunchGeometry& g, int block_x, int block_y);  // the pixels its threads own
PixelRect tile_rect(const LaunchGeometry& g, int block_x, int block_y);   // block_rect grown by the halo
PixelRect input_window(const LaunchGeometry& g, int x, int y);            // what pixel (x, y) reads

// Threads of a block whose pixels all lie past the image (they return at the bounds check), and of the grid.
int idle_threads(const LaunchGeometry& g, int block_x, int block_y);
long long idle_threads(const LaunchGeometry& g);

}  // namespace ks
