#include "core/peaks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ks {

double attainable_gflops(const ComputePeaks& peaks, double intensity) {
  return std::min(peaks.fma_gflops, intensity * peaks.memory_gbps);
}

double ridge_intensity(const ComputePeaks& peaks) {
  return peaks.memory_gbps > 0 ? peaks.fma_gflops / peaks.memory_gbps : 0.0;
}

double kind_ceiling_gops(const ComputePeaks& peaks, OpKind kind) {
  switch (kind) {
    case OpKind::F32Fma:
      return peaks.fma_gflops;
    case OpKind::F32One:
      return peaks.fma_gflops / 2;
    // Narrow elements may be computed in wider lanes (the GPU's u8 medians work on 16-bit lane pairs): their
    // ceiling is the fastest of the widths that hold them.
    case OpKind::U8:
      return std::max({peaks.u8_gops, peaks.i16_gops, peaks.i32_gops});
    case OpKind::I16:
      return std::max(peaks.i16_gops, peaks.i32_gops);
    case OpKind::I32:
      return peaks.i32_gops;
  }
  return 0;
}

ComputeCeiling compute_ceiling(const ComputePeaks& peaks, const OpMix& mix) {
  const double total = mix.total();
  if (!(total > 0)) return {};
  std::array<double, kOpKinds> seconds{};  // per 1e9 operations of the mix
  double sum = 0;
  for (OpKind k : kAllOpKinds) {
    if (!(mix[k] > 0)) continue;
    const double ceiling = kind_ceiling_gops(peaks, k);
    if (!(ceiling > 0)) return {};
    seconds[std::size_t(k)] = mix[k] / ceiling;
    sum += seconds[std::size_t(k)];
  }
  ComputeCeiling c;
  c.gops = total / sum;
  std::array<OpKind, kOpKinds> order = kAllOpKinds;
  std::stable_sort(order.begin(), order.end(),
                   [&](OpKind a, OpKind b) { return seconds[std::size_t(a)] > seconds[std::size_t(b)]; });
  const int kinds = int(std::count_if(seconds.begin(), seconds.end(), [](double s) { return s > 0; }));
  for (int i = 0; i < kinds; ++i) {
    const OpKind k = order[std::size_t(i)];
    if (i > 0) c.name += " + ";
    c.name += kinds == 1 ? std::string(ceiling_name(k))
                         : fmt::format("{} {:.0f}%", ceiling_name(k), 100.0 * seconds[std::size_t(k)] / sum);
  }
  return c;
}

MemoryCeiling memory_ceiling(const ComputePeaks& peaks, double bytes) {
  // The largest footprint not above the run's bytes (the smallest for a run below them all): a copy of more
  // bytes is never faster, so its bandwidth bounds this run's. From the main copy's footprint on, the main
  // copy.
  const ComputePeaks::CachedCopy* chosen = nullptr;
  for (const auto& c : peaks.cached_copies)
    if (!chosen || c.footprint_bytes <= bytes) chosen = &c;
  const bool past_caches = peaks.memory_footprint_bytes > 0 && bytes >= peaks.memory_footprint_bytes;
  if (!chosen || past_caches || !(chosen->gbps > peaks.memory_gbps)) return {"copy", peaks.memory_gbps};
  const double kib = chosen->footprint_bytes / 1024;
  return {kib >= 1024 ? fmt::format("copy of {:g} MiB (cached)", kib / 1024)
                      : fmt::format("copy of {:g} KiB (cached)", kib),
          chosen->gbps};
}

RooflineFigures roofline_figures(const OpMix& mix, std::uint64_t bytes, double median_ms,
                                 const ComputePeaks& peaks) {
  RooflineFigures f;
  f.peaks = peaks;
  f.mix = mix;
  const double operations = mix.total();
  f.ceiling = compute_ceiling(peaks, mix);
  f.memory = memory_ceiling(peaks, double(bytes));
  if (bytes > 0) f.intensity = operations / double(bytes);
  if (median_ms > 0 && std::isfinite(median_ms)) {
    f.gflops = operations / (median_ms * 1e6);
    f.gbps = double(bytes) / (median_ms * 1e6);
  }
  f.attainable_gflops = std::min(f.ceiling.gops, f.intensity * f.memory.gbps);
  if (f.attainable_gflops > 0)
    f.percent_of_roof = 100.0 * f.gflops / f.attainable_gflops;
  else if (!(operations > 0) && f.memory.gbps > 0)
    f.percent_of_roof = 100.0 * f.gbps / f.memory.gbps;
  return f;
}

RooflineFigures roofline_figures(std::uint64_t operations, std::uint64_t bytes, double median_ms,
                                 const ComputePeaks& peaks) {
  return roofline_figures(OpMix::of(OpKind::F32Fma, double(operations)), bytes, median_ms, peaks);
}

}  // namespace ks
