#pragma once
// The roofline's model, as the Roofline section needs it. Branch `roofline` adds the real thing in
// gpu/core/peaks.hpp (ks::ComputePeaks, ks::attainable_gflops, ks::RooflinePoint, Engine::peaks(Backend))
// with these same names and fields. Until the lead merges it, local stand-ins live in ks::ui::local_peaks;
// the panel names them only through the alias `peaks` below. Switching is a one-line change: replace the
// alias line with
//   namespace peaks = ::ks;   // and #include "core/peaks.hpp" instead of the stand-ins
// (then delete the stand-ins).
#include <algorithm>
#include <string>

namespace ks::ui::local_peaks {

// What the machine can do: memory bandwidth (GB/s) and an FMA throughput (GFLOP/s); 0 = not measured.
struct ComputePeaks {
  double memory_gbps = 0;
  double fma_gflops = 0;
  std::string where;  // "H100 (measured copy bandwidth)", ...
};

// min(compute ceiling, memory_gbps * intensity); with no compute peak, the memory slope alone.
inline double attainable_gflops(const ComputePeaks& p, double intensity) {
  const double memory = p.memory_gbps * intensity;
  return p.fma_gflops > 0 ? std::min(p.fma_gflops, memory) : memory;
}

// One run under the roofs: intensity in FLOP per byte, its achieved GFLOP/s and GB/s.
struct RooflinePoint {
  std::string label;
  double intensity = 0, gflops = 0, gbps = 0;
};

}  // namespace ks::ui::local_peaks

namespace ks::ui::panels {
namespace peaks = ::ks::ui::local_peaks;  // the line to switch to `namespace peaks = ::ks;` (see above)
}  // namespace ks::ui::panels
