#pragma once
// How an image is cut into GL textures: one texture when both sides fit GL_MAX_TEXTURE_SIZE (the usual case: 16384
// on Mesa, 32768 on NVIDIA), a grid of tiles otherwise. Every tile is a full max_size square except those of the
// last column and row.
#include <vector>

namespace ks::ui {

struct TileRect {
  int x = 0, y = 0, width = 0, height = 0;  // in image pixels
  bool operator==(const TileRect&) const = default;
};

// Row-major (left to right, then top to bottom). Empty for an empty image; max_size must be positive.
std::vector<TileRect> tile_layout(int width, int height, int max_size);

}  // namespace ks::ui
