#include "stencil/stencil_geometry.hpp"

#include "stencil/tiled_design.hpp"

namespace ks {

StencilGeometry stencil_geometry(const StencilPlan& plan, const std::string& variant, int width, int height,
                                 BlockShape block, ElemType type, int channels) {
  StencilGeometry g;
  if (variant == "naive") {
    g.geometry = window_launch(width, height, block, plan.radius_x(), plan.radius_y(), false);
    return g;
  }
  if (variant == "tiled") {
    if (tiled_design(plan, type, channels, block).kernel == TiledKernel::Laplacian3x3) {
      g.why_not =
          "the tiled laplacian of one-channel u8 images runs the 3x3 register kernel (16 pixels of a row per lane, "
          "rows walked down in registers, neighbours by warp shuffles, no shared tile): the overlay draws the "
          "naive variant, or tiled on another type";
      return g;
    }
    LaunchGeometry geo = window_launch(width, height, block, plan.radius_x(), plan.radius_y(), true);
    const TiledDesign d = tiled_design(plan, type, channels, block);
    if (d.kernel == TiledKernel::Window) {
      geo.cells_y = d.cells_y;
      geo.halo_x = d.halo_x;
      if (d.cells_y > 1)
        geo.how = std::string("each thread computes ") + std::to_string(d.cells_y) +
                  " pixels of a column; each block loads its tile plus the halo into shared memory first" +
                  (d.quad_loads ? ", 4 pixels per load (the halo rounded out to whole quads)" : "");
    } else if (d.kernel != TiledKernel::Window) {
      geo.cells_x = d.cells_x;
      geo.cells_y = d.cells_y;
      geo.halo_x = d.halo_x;
      geo.halo_y = d.halo_y;
      geo.how = d.kernel == TiledKernel::Median
                    ? "each thread computes a quad of elements of a row (4 u8 or 4 floats) and a few rows by "
                      "selection networks; each block loads its tile plus the halo, in whole quads, into shared "
                      "memory first"
                    : "each thread computes 4 pixels of a row and a few rows; each block loads its tile plus the "
                      "halo, in whole quads, and the weights into shared memory first";
    }
    g.geometry = std::move(geo);
    return g;
  }
  if (variant == "recursive")
    g.why_not =
        "the recursive variant runs seven kernels over square tiles (64 pixels a side, 32 for 4 channels), not "
        "one: each tile filters its segments of rows and columns from their carries (the states those segments "
        "start with), which launches of a thread per line walk from tile to tile, from the lines' warm-ups; the "
        "overlay draws the naive and tiled variants";
  else if (variant == "separable")
    g.why_not =
        "the separable variant runs a row pass and a column pass whose blocks walk strips of rows with "
        "several outputs per thread (the 3x3 kernel keeps rows in registers): the overlay draws the naive "
        "and tiled variants";
  else
    g.why_not = kCpuHasNoBlocks;
  return g;
}

}  // namespace ks
