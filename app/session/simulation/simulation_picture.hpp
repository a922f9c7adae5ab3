#pragma once
// How a simulation's state looks: the colormap and value range the viewport starts it with, and the same mapping
// applied on the host for exported frames, so that a PNG shows what the window shows.
#include <string>

#include "core/image.hpp"
#include "registry/params.hpp"
#include "session/display_frame.hpp"

namespace ks::app {

struct SimPicture {
  ui::Colormap colormap = ui::Colormap::Gray;
  float range_min = 0, range_max = 1;  // state values mapped to the colormap's ends (life: 0..255)
};

// life: gray over 0..255 (live white); heat: magma over the initial state's range (with the boundary value when
// the boundary is fixed; diverging when it spans 0); grayscott: viridis over v in 0..0.5.
SimPicture suggested_picture(const std::string& kernel, const Image& initial_state, const ParamSet& params);

// `state` (1 channel, u8 or f32) through the picture's colormap: RGB8, one pixel per cell. Values outside the
// range take the colormap's end colours; NaN shows as the low end.
Image colorize(const Image& state, const SimPicture& picture);

}  // namespace ks::app
