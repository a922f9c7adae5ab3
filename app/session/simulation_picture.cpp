#include "session/simulation_picture.hpp"

#include <algorithm>
#include <cmath>

#include "cli/sim_frames.hpp"
#include "core/error.hpp"

namespace ks::app {

SimPicture suggested_picture(const std::string& kernel, const Image& initial, const ParamSet& params) {
  SimPicture p;
  if (kernel == "life") {
    p.range_min = 0, p.range_max = 255;
    return p;
  }
  if (kernel == "grayscott") {
    p.colormap = ui::Colormap::Viridis;
    p.range_min = 0, p.range_max = 0.5f;
    return p;
  }
  // Heat: the explicit scheme never leaves the range of the initial state and the fixed boundary, so that range
  // shows every later state without saturating.
  float lo = 0, hi = 0;
  bool any = false;
  if (initial.type() == ElemType::F32) {
    for (float v : initial.elements<float>()) {
      if (!std::isfinite(v)) continue;
      lo = any ? std::min(lo, v) : v;
      hi = any ? std::max(hi, v) : v;
      any = true;
    }
  }
  if (params.get_choice("boundary") == "fixed") {
    const float outside = float(params.get_float("boundary_value"));
    lo = any ? std::min(lo, outside) : outside;
    hi = any ? std::max(hi, outside) : outside;
  }
  if (!(hi > lo)) hi = lo + 1;
  p.colormap = lo < 0 && hi > 0 ? ui::Colormap::Diverging : ui::Colormap::Magma;
  if (p.colormap == ui::Colormap::Diverging) hi = std::max(hi, -lo), lo = -hi;
  p.range_min = lo, p.range_max = hi;
  return p;
}

Image colorize(const Image& state, const SimPicture& picture) {
  return cli::levels_to_rgb(cli::state_levels(state, picture.range_min, picture.range_max), picture.colormap);
}

}  // namespace ks::app
