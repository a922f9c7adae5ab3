#include "stencil/stencil_geometry.hpp"

namespace ks {

StencilGeometry stencil_geometry(const StencilPlan& plan, const std::string& variant, int width, int height,
                                 BlockShape block) {
  StencilGeometry g;
  if (variant == "naive" || variant == "tiled") {
    g.geometry = window_launch(width, height, block, plan.radius_x(), plan.radius_y(), variant == "tiled");
    return g;
  }
  if (variant == "separable")
    g.why_not =
        "the separable variant runs a row pass and a column pass whose blocks walk strips of rows with "
        "several outputs per thread (the 3x3 kernel keeps rows in registers): the overlay draws the naive "
        "and tiled variants, whose threads own one pixel each";
  else
    g.why_not = kCpuHasNoBlocks;
  return g;
}

}  // namespace ks
