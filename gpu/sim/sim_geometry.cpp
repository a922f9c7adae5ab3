#include "sim/sim_geometry.hpp"

namespace ks {

SimGeometry sim_geometry(const std::string& kernel_id, const std::string& variant, int width, int height,
                         BlockShape block) {
  SimGeometry g;
  const bool life = kernel_id == "life";
  if (variant == "naive" || (life && variant == "tiled")) {
    // Every cell reads its 3x3 neighbourhood (life: 8 neighbours; heat, grayscott: the 4 of the cross).
    g.geometry = window_launch(width, height, block, 1, 1, variant == "tiled");
    g.geometry->cross = !life;
    g.geometry->how = variant == "tiled"
                          ? "one thread per cell; each block loads its tile plus a one-cell halo "
                            "into shared memory first"
                      : life ? "one thread per cell; its 8 neighbours read from global memory"
                             : "one thread per cell; its 4 neighbours read from global memory";
    return g;
  }
  if (variant == "strip") {
    LaunchGeometry s = window_launch(width, height, block, 1, 1, false);
    s.cross = true;
    s.cells_x = kFieldStripCells;
    s.cells_y = kFieldStripRows;
    s.how =
        "each thread owns 4 adjacent cells of a row and walks down 16 rows, the rows above and below in "
        "registers";
    g.geometry = s;
    return g;
  }
  if (variant == "temporal") {
    g.why_not =
        "the temporal variant's warps overlap: each computes 128 columns and writes the middle ones (k steps "
        "shrink what is right by a cell a step), and its blocks are counted in warps, not laid out: the overlay "
        "draws the naive and strip variants";
    return g;
  }
  if (variant == "bitpacked")
    g.why_not =
        "the bitpacked variant packs 64 cells into each word a thread computes: the overlay draws the "
        "naive and tiled variants, whose threads own one cell each";
  else if (variant == "multistep")
    g.why_not =
        "the multistep variant gives each warp a tile of 30 words (960 cells) x 64 rows plus a halo it "
        "recomputes, for several generations per pass: the overlay draws the naive and tiled variants, whose "
        "threads own one cell each";
  else
    g.why_not = kCpuHasNoBlocks;
  return g;
}

}  // namespace ks
