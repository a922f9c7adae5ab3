#pragma once
// Pictures of a simulation's state, as `sim` writes them (-o and --frames): 8-bit gray, one fixed mapping per
// run so that the frames of an animation are comparable.
//   life:      live cells white (255), dead black (0), as the state is stored;
//   heat:      u mapped linearly from the initial state's range [min, max] (with the boundary value when the
//              boundary is fixed) to 0..255; the explicit scheme never leaves that range;
//   grayscott: v mapped from 0..0.5 to 0..255 (v stays below 0.5 in the usual regimes; above it saturates).
#include <filesystem>
#include <string>

#include "core/image.hpp"
#include "registry/params.hpp"
#include "sim/simulation.hpp"

namespace ks::cli {

class SimPicture {
 public:
  // Reads the mapping from the simulation's state now (call it before the first step) and its parameters.
  SimPicture(Simulation& sim, const ParamSet& params);
  Image of(Simulation& sim) const;
  // "live cells white, dead black", "u from [0, 1] to 0..255", ...
  const std::string& mapping() const noexcept { return mapping_; }

 private:
  std::string kernel_;
  float lo_ = 0, hi_ = 1;
  std::string mapping_;
};

// "DIR/frame_00042.png": frames numbered in order, zero-padded for tools that glob or sort by name.
std::filesystem::path frame_path(const std::filesystem::path& dir, long long index);

// The folder for --frames: created when missing; an Io error when it is a file or cannot be created.
void prepare_frames_folder(const std::filesystem::path& dir);

}  // namespace ks::cli
