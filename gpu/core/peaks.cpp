#include "core/peaks.hpp"

#include <algorithm>
#include <cmath>

namespace ks {

double attainable_gflops(const ComputePeaks& peaks, double intensity) {
  return std::min(peaks.fma_gflops, intensity * peaks.memory_gbps);
}

double ridge_intensity(const ComputePeaks& peaks) {
  return peaks.memory_gbps > 0 ? peaks.fma_gflops / peaks.memory_gbps : 0.0;
}

RooflineFigures roofline_figures(std::uint64_t operations, std::uint64_t bytes, double median_ms,
                                 const ComputePeaks& peaks) {
  RooflineFigures f;
  f.peaks = peaks;
  if (bytes > 0) f.intensity = double(operations) / double(bytes);
  if (median_ms > 0 && std::isfinite(median_ms)) {
    f.gflops = double(operations) / (median_ms * 1e6);
    f.gbps = double(bytes) / (median_ms * 1e6);
  }
  f.attainable_gflops = attainable_gflops(peaks, f.intensity);
  if (f.attainable_gflops > 0)
    f.percent_of_roof = 100.0 * f.gflops / f.attainable_gflops;
  else if (operations == 0 && peaks.memory_gbps > 0)
    f.percent_of_roof = 100.0 * f.gbps / peaks.memory_gbps;
  return f;
}

}  // namespace ks
