#pragma once
// Pictures of a simulation's state, as `sim` writes them (-o, --frames, --gif): one fixed mapping per run so that
// the frames of an animation are comparable, from the state to 256 levels, then through a colormap (gray: the
// levels as 8-bit gray; another: RGB, and the GIF's palette).
//   life:      live cells 255, dead 0, as the state is stored;
//   heat:      u mapped linearly from the initial state's range [min, max] (with the boundary value when the
//              boundary is fixed) to 0..255; the explicit scheme never leaves that range;
//   grayscott: v mapped from 0..0.5 to 0..255 (v stays below 0.5 in the usual regimes; above it saturates).
// The app's exported frames use the same functions with the viewport's colormap and range.
#include <array>
#include <filesystem>
#include <string>

#include "core/image.hpp"
#include "io/gif_writer.hpp"
#include "registry/params.hpp"
#include "report/colormap.hpp"
#include "sim/simulation.hpp"

namespace ks::report {

// The values a simulation's pictures span, for the whole run: life 0..255 (its cells), grayscott v in 0..0.5
// (above saturates), heat the initial state's range (finite values) with the fixed boundary's value, which the
// explicit scheme never leaves. hi > lo. `initial` is read for heat only. The CLI and the app's view both use it.
struct StateRange {
  float lo = 0, hi = 255;
};
StateRange state_range(const std::string& kernel, const Image& initial, const ParamSet& params);

// A state (1 channel, u8 or f32) as levels: [lo, hi] linearly to 0..255, rounded to nearest; values outside
// take the ends; NaN and infinities 0. 1 channel u8.
Image state_levels(const Image& state, float lo, float hi);
// Levels through a colormap: RGB8, one pixel per level.
Image levels_to_rgb(const Image& levels, Colormap map);
// The colormap's 256 colours, as a GIF palette.
std::array<Rgb8, 256> colormap_palette(Colormap map);
// "gray", "viridis", ... -> the colormap; a usage Error listing the names otherwise.
Colormap parse_colormap(const std::string& name);

class SimPicture {
 public:
  // Reads the mapping from the simulation's state now (call it before the first step) and its parameters.
  SimPicture(Simulation& sim, const ParamSet& params, Colormap colormap = Colormap::Gray);
  // The state as levels (what a GIF frame holds, over palette()).
  Image levels(Simulation& sim) const;
  // The picture to save: the levels as 8-bit gray with the gray colormap, RGB through any other.
  Image of(Simulation& sim) const;
  std::array<Rgb8, 256> palette() const { return colormap_palette(colormap_); }
  // "live cells white, dead black", "u from [0, 1] to 0..255", ... (and "through viridis" for a colormap)
  const std::string& mapping() const noexcept { return mapping_; }

 private:
  std::string kernel_;
  Colormap colormap_;
  StateRange range_;
  std::string mapping_;
};

// "DIR/frame_00042.png": frames numbered in order, zero-padded for tools that glob or sort by name.
std::filesystem::path frame_path(const std::filesystem::path& dir, long long index);

// The folder for --frames: created when missing; an Io error when it is a file or cannot be created.
void prepare_frames_folder(const std::filesystem::path& dir);

}  // namespace ks::report
