#pragma once
// The roof of the roofline: what a backend can do at most (a ceiling per kind of operation, core/op_mix.hpp,
// and the copy bandwidth), and where one measured run sits under the roof of its own operations. The figures
// every report carries (run, sim, topo, lab, bench) come from `roofline_figures`; the GUI's Roofline panel
// and `bench --roofline` draw `RooflinePoint`s under the roof.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/op_mix.hpp"

namespace ks {

// What a backend can do at most: the roof of the roofline.
struct ComputePeaks {
  // The two roofs every backend measures and where (the rest measured where the backend can).
  ComputePeaks(double memory = 0, double fma = 0, std::string where_measured = {})
      : memory_gbps(memory), fma_gflops(fma), where(std::move(where_measured)) {}

  // Copy bandwidth, bytes read + written per second / 1e9 (the GPU: CudaContext::copy_bandwidth_gbps).
  double memory_gbps = 0;
  double fma_gflops = 0;  // f32 fused multiply-adds, an FMA counting 2 operations
  std::string where;      // "NVIDIA H100 80GB HBM3" or "CPU (16 threads)"
  // Integer operations per second / 1e9 on 8-, 16- and 32-bit lanes (min/max, the median's compare-exchange,
  // measured as the FMA peak is: independent chains on every thread; 0 when not measured).
  double u8_gops = 0, i16_gops = 0, i32_gops = 0;
  // The copy bandwidth of working sets that stay in the caches: (footprint in bytes, read + write GB/s), the
  // footprints rising. A run moving no more than a footprint may go as fast as that copy (1024^2 u8 in and
  // out is 2 MiB). Empty where only `memory_gbps` was measured (the GPU: its stencils' images pass its L2).
  struct CachedCopy {
    double footprint_bytes = 0;
    double gbps = 0;
  };
  std::vector<CachedCopy> cached_copies;
  double memory_footprint_bytes = 0;  // of the copy behind `memory_gbps` (read + write); 0 when not said
};

// The ceiling of one kind of operation in operations/s / 1e9: the FMA peak for FMAs, half of it for lone f32
// operations (one per FMA slot), the measured integer rate of the width or of a wider one if faster. 0 when
// unknown.
double kind_ceiling_gops(const ComputePeaks& peaks, OpKind kind);

// The compute ceiling a mix of operations can reach: its operations over the least time they take when each
// kind runs at its own ceiling one after another (time = sum of ops_k / ceiling_k). Kinds share the vector
// units (x86's integer and FP SIMD issue to the same ports; a GPU's INT32 lanes are half its FP32 ones), so
// the sum, not the largest term, bounds them. `name` is the single kind's ("u8 integer") or the kinds by
// share of that time ("f32 FMA 80% + f32 add/mul 20%"). 0 and empty without operations or with an unmeasured
// kind.
struct ComputeCeiling {
  std::string name;
  double gops = 0;
};
ComputeCeiling compute_ceiling(const ComputePeaks& peaks, const OpMix& mix);

// The memory ceiling of a run moving `bytes`: the copy bandwidth of the largest cached footprint not above
// them (a larger copy is never faster; the smallest for fewer bytes), `memory_gbps` from
// `memory_footprint_bytes` on or without cached copies. `name` says which ("copy of 2 MiB (cached)", "copy").
struct MemoryCeiling {
  std::string name;
  double gbps = 0;
};
MemoryCeiling memory_ceiling(const ComputePeaks& peaks, double bytes);

// The roof at an arithmetic intensity (operations per byte): min(fma_gflops, intensity * memory_gbps).
double attainable_gflops(const ComputePeaks& peaks, double intensity);

// The intensity where the memory slope meets the compute ceiling (fma_gflops / memory_gbps); 0 when unknown.
double ridge_intensity(const ComputePeaks& peaks);

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
  OpMix mix;               // the run's operations by kind
  ComputeCeiling ceiling;  // of the run's operations (compute_ceiling)
  MemoryCeiling memory;    // of the run's bytes (memory_ceiling)
  ComputePeaks peaks;  // of the backend the run ran on
};

// One measured run placed on the roofline, with the roof of its own operations and bytes (empty names: the
// backend's f32 FMA and copy roof).
struct RooflinePoint {
  RooflinePoint(std::string point_label = {}, double at_intensity = 0, double at_gflops = 0,
                double at_gbps = 0, ComputeCeiling own_ceiling = {}, MemoryCeiling own_memory = {})
      : label(std::move(point_label)),
        intensity(at_intensity),
        gflops(at_gflops),
        gbps(at_gbps),
        ceiling(std::move(own_ceiling)),
        memory(std::move(own_memory)) {}

  std::string label;     // e.g. "box naive u8", "matmul regtiled"
  double intensity = 0;  // operations / bytes of the cost model
  double gflops = 0;     // achieved operations / s / 1e9 (median kernel time)
  double gbps = 0;       // achieved bytes / s / 1e9
  ComputeCeiling ceiling;
  MemoryCeiling memory;
};

// From a run's operations by kind, its bytes and its median time in milliseconds. The roof is min(its compute
// ceiling, intensity x its memory ceiling).
RooflineFigures roofline_figures(const OpMix& mix, std::uint64_t bytes, double median_ms,
                                 const ComputePeaks& peaks);
// Operations not yet told apart by kind, held against the f32 FMA peak.
RooflineFigures roofline_figures(std::uint64_t operations, std::uint64_t bytes, double median_ms,
                                 const ComputePeaks& peaks);

}  // namespace ks
