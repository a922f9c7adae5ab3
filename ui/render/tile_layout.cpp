#include "render/tile_layout.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace ks::ui {

std::vector<TileRect> tile_layout(int width, int height, int max_size) {
  if (max_size <= 0) throw Error(ErrorKind::Internal, "tile_layout needs a positive texture size");
  std::vector<TileRect> tiles;
  if (width <= 0 || height <= 0) return tiles;
  for (int y = 0; y < height; y += max_size)
    for (int x = 0; x < width; x += max_size)
      tiles.push_back({x, y, std::min(max_size, width - x), std::min(max_size, height - y)});
  return tiles;
}

}  // namespace ks::ui
