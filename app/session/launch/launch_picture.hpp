#pragma once
// What the Launch section and the launch overlay show about the current launch: its geometry (which block and
// thread compute each pixel), on which device (the GPU in use, or a device model on a machine without one),
// and the occupancy there. Qt-free: the panels, --screenshot and the tests read it from
// Session::launch_picture().
#include <optional>
#include <string>

#include "core/launch_geometry.hpp"
#include "core/occupancy.hpp"

namespace ks::app {

// What the Launch section says of the current block: its occupancy on the GPU in use, or why there is none.
struct LaunchInfo {
  std::optional<OccupancyReport> occupancy;  // of the current block, variant and kernel on this GPU
  std::string problem;                       // why there is none (CPU backend, block the kernel cannot run)
};

struct LaunchPicture {
  std::optional<LaunchGeometry>
      geometry;  // none: not a launch the overlay can draw exactly (why_not says why)
  std::string why_not;
  std::string variant;  // the CUDA variant pictured (the one running, or the one modelled on the CPU backend)
  std::string device_name;                   // "NVIDIA H100 80GB HBM3", or "H100 SXM (model)"
  bool model = false;                        // device_name is a device model, not the GPU in use
  std::optional<OccupancyReport> occupancy;  // on that device (for a model: from the build's register counts)
  std::string occupancy_note;                // where a model's figures come from, or why there are none
};

}  // namespace ks::app
