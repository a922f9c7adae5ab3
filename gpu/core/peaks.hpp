#pragma once
// The roof of the roofline: what a backend can do at most (f32 FMA throughput and copy bandwidth), and where
// one measured run sits under it. The figures every report carries (run, sim, topo, lab, bench) come from
// `roofline_figures`; the GUI's Roofline panel and `bench --roofline` draw `RooflinePoint`s under the roof.
#include <cstdint>
#include <string>

namespace ks {

// What a backend can do at most: the roof of the roofline.
struct ComputePeaks {
  // Copy bandwidth, bytes read + written per second / 1e9 (the GPU: CudaContext::copy_bandwidth_gbps).
  double memory_gbps = 0;
  double fma_gflops = 0;  // f32 fused multiply-adds, an FMA counting 2 operations
  std::string where;      // "NVIDIA H100 80GB HBM3" or "CPU (16 threads)"
};

// The roof at an arithmetic intensity (operations per byte): min(fma_gflops, intensity * memory_gbps).
double attainable_gflops(const ComputePeaks& peaks, double intensity);

// The intensity where the memory slope meets the compute ceiling (fma_gflops / memory_gbps); 0 when unknown.
double ridge_intensity(const ComputePeaks& peaks);

// One measured run placed on the roofline.
struct RooflinePoint {
  std::string label;     // e.g. "box naive u8", "matmul regtiled"
  double intensity = 0;  // operations / bytes of the cost model
  double gflops = 0;     // achieved operations / s / 1e9 (median kernel time)
  double gbps = 0;       // achieved bytes / s / 1e9
};

// The roofline figures of one run, as the JSON reports carry them.
struct RooflineFigures {
  double intensity = 0;          // operations / bytes (0 when the cost model moves no bytes)
  double gflops = 0;             // operations / median time
  double gbps = 0;               // bytes / median time
  double attainable_gflops = 0;  // the roof at `intensity`
  // How close the run came to the roof: gflops / attainable_gflops * 100. A run without operations (intensity
  // 0) has a roof of 0 operations; its figure is then the limit of the same ratio on the memory slope,
  // gbps / memory_gbps * 100. 0 when the peaks are unknown.
  double percent_of_roof = 0;
  ComputePeaks peaks;  // of the backend the run ran on
};

// From a run's cost model (operations, bytes) and its median time in milliseconds.
RooflineFigures roofline_figures(std::uint64_t operations, std::uint64_t bytes, double median_ms,
                                 const ComputePeaks& peaks);

}  // namespace ks
