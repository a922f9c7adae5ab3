#include "session/simulation/simulation_picture.hpp"

#include <algorithm>
#include <cmath>

#include "report/sim_frames.hpp"
#include "core/error.hpp"

namespace ks::app {

SimPicture suggested_picture(const std::string& kernel, const Image& initial, const ParamSet& params) {
  SimPicture p;
  auto [lo, hi] = report::state_range(kernel, initial, params);
  if (kernel == "grayscott") p.colormap = ui::Colormap::Viridis;
  if (kernel == "heat") {
    // A range across 0 reads best symmetric, with zero at the diverging map's neutral middle.
    p.colormap = lo < 0 && hi > 0 ? ui::Colormap::Diverging : ui::Colormap::Magma;
    if (p.colormap == ui::Colormap::Diverging) hi = std::max(hi, -lo), lo = -hi;
  }
  p.range_min = lo, p.range_max = hi;
  return p;
}

Image colorize(const Image& state, const SimPicture& picture) {
  return report::levels_to_rgb(report::state_levels(state, picture.range_min, picture.range_max), picture.colormap);
}

}  // namespace ks::app
