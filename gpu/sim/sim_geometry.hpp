#pragma once
// The launch geometry of a simulation variant (life, heat, grayscott), for the launch overlay: exact for
// naive and tiled (one thread per cell) and strip (each thread owns 4 cells of a row and walks down
// kFieldStripRows rows: sim/cuda/field_strip.cu launches with these constants); none for bitpacked (64 cells
// per word), multistep (a warp per tile of words, several generations per pass) and temporal (warps whose
// segments overlap by the halo of k steps).
#include <optional>
#include <string>

#include "core/launch_geometry.hpp"

namespace ks {

inline constexpr int kFieldStripCells = 4;  // adjacent cells of a row per thread (one 16-byte load)
inline constexpr int kFieldStripRows = 16;  // rows each thread walks down

struct SimGeometry {
  std::optional<LaunchGeometry> geometry;
  std::string why_not;
};

SimGeometry sim_geometry(const std::string& kernel_id, const std::string& variant, int width, int height,
                         BlockShape block);

}  // namespace ks
