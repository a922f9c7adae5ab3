#pragma once
// The roofline's model as the Roofline section uses it: the core's ComputePeaks and RooflinePoint
// (gpu/core/peaks.hpp, measured by Engine::peaks), named through `peaks::` in the panel.
#include <algorithm>

#include "core/peaks.hpp"

namespace ks::ui::panels {

namespace peaks = ::ks;

// The roof at `intensity`, also where only one roof is known (the core's attainable_gflops needs both): the
// memory slope alone without an FMA peak, the ceiling alone without a bandwidth.
inline double roof_at(const ComputePeaks& p, double intensity) {
  if (p.fma_gflops > 0 && p.memory_gbps > 0) return attainable_gflops(p, intensity);
  return p.fma_gflops > 0 ? p.fma_gflops : p.memory_gbps * intensity;
}

}  // namespace ks::ui::panels
