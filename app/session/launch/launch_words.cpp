#include "session/launch/launch_words.hpp"

#include <fmt/format.h>

namespace ks::app {

std::vector<std::string> describe_launch(const LaunchPicture& p) {
  std::vector<std::string> lines;
  const std::string where = p.device_name.empty() ? std::string() : " on " + p.device_name;
  if (!p.geometry) {
    lines.push_back(p.variant.empty() ? "launch grid" : "launch grid: " + p.variant + where);
    lines.push_back(p.why_not);
    return lines;
  }
  const LaunchGeometry& g = *p.geometry;
  lines.push_back("launch grid: " + p.variant + where);
  lines.push_back(fmt::format("grid {} x {} blocks of {} x {} threads = {} threads", g.grid_x(), g.grid_y(),
                              g.block.x, g.block.y, g.threads()));
  const long long idle = idle_threads(g);
  if (idle > 0)
    lines.push_back(
        fmt::format("{} idle threads ({:.1f}%) in the partial blocks at the right and bottom edges", idle,
                    100.0 * double(idle) / double(g.threads())));
  else
    lines.push_back("no idle threads: the blocks tile the image exactly");
  if (g.cells_x > 1 || g.cells_y > 1)
    lines.push_back(fmt::format("each thread computes {} x {} cells", g.cells_x, g.cells_y));
  lines.push_back(g.how);
  if (p.occupancy)
    lines.push_back(fmt::format("occupancy {:.0f}% ({} blocks/SM, limited by {}){}",
                                100.0 * p.occupancy->occupancy, p.occupancy->active_blocks_per_sm,
                                p.occupancy->limiter, p.model ? ": a model, not a measurement" : ""));
  return lines;
}

std::vector<std::string> describe_pixel(const LaunchGeometry& g, int x, int y) {
  std::vector<std::string> lines;
  const PixelThread t = thread_of_pixel(g, x, y);
  lines.push_back(fmt::format("pixel ({}, {})", x, y));
  lines.push_back(
      fmt::format("blockIdx ({}, {})  threadIdx ({}, {})", t.block_x, t.block_y, t.thread_x, t.thread_y));
  if (g.cells_x > 1 || g.cells_y > 1) {
    const int x0 = (x / g.cells_x) * g.cells_x, y0 = (y / g.cells_y) * g.cells_y;
    lines.push_back(fmt::format("that thread computes x {}..{}, y {}..{}", x0, x0 + g.cells_x - 1, y0,
                                y0 + g.cells_y - 1));
  }
  const PixelRect w = input_window(g, x, y);
  if (g.cross)
    lines.push_back(fmt::format("reads ({}, {}) and its 4 neighbours: x {}..{}, y {}..{}", x, y, w.x0,
                                w.x1 - 1, w.y0, w.y1 - 1));
  else
    lines.push_back(fmt::format("reads {} x {} pixels: x {}..{}, y {}..{}", w.width(), w.height(), w.x0,
                                w.x1 - 1, w.y0, w.y1 - 1));
  if (w.x0 < 0 || w.y0 < 0 || w.x1 > g.width || w.y1 > g.height)
    lines.push_back("past the image's edge the border rule supplies the values");
  if (g.shared_tile) {
    const PixelRect tile = tile_rect(g, t.block_x, t.block_y);
    lines.push_back(fmt::format("from its block's shared tile of {} x {} pixels (halo {}, {})", tile.width(),
                                tile.height(), g.tile_halo_x(), g.tile_halo_y()));
  }
  const int idle = idle_threads(g, t.block_x, t.block_y);
  if (idle > 0) lines.push_back(fmt::format("this block has {} idle threads", idle));
  return lines;
}

}  // namespace ks::app
