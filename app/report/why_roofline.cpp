// Roofline pitfalls: a memory-bound kernel far below the copy bandwidth, a compute-bound one far below the
// ceiling of its own operations.
#include <fmt/format.h>

#include "report/text_format.hpp"
#include "report/why_detectors.hpp"
#include "report/why_fixes.hpp"
#include "report/why_thresholds.hpp"

namespace ks::report::why {

namespace {

std::string faster_code_fix(const WhyInput& in) {
  std::string fix = variant_fix(in);
  if (!fix.empty()) return fix;
  if (in.backend == Backend::Cpu) return "--backend cuda, where a GPU is present";
  return in.counters ? "see the counter findings: they say where the time goes"
                     : "read the hardware counters of the run (--counters): they say where the time goes";
}

}  // namespace

bool near_roof(const WhyInput& in) {
  return in.roofline.percent_of_roof >= why_limits::kNearRoofPercent;
}

void find_roofline_pitfalls(const WhyInput& in, std::vector<WhyFinding>& out) {
  const RooflineFigures& f = in.roofline;
  if (in.kernel_time.median_ms <= 0 || f.memory.gbps <= 0) return;
  const bool compute_known = f.ceiling.gops > 0 && f.intensity > 0;
  const bool memory_bound = !compute_known || f.intensity * f.memory.gbps < f.ceiling.gops;
  if (memory_bound) {
    const double percent = 100 * f.gbps / f.memory.gbps;
    if (percent >= why_limits::kFarBelowRoofPercent) return;
    out.push_back(
        {"memory-far-below-copy",
         fmt::format(
             "A memory-bound kernel{} moving its bytes at {} GB/s: {} of what a copy of as many bytes "
             "reaches ({} GB/s, {} on {}). It reads or writes more than it must, or not in long runs.",
             compute_known ? fmt::format(" ({} op/B, below the ridge)", format_intensity(f.intensity)) : "",
             format_gbps(f.gbps), format_percent(percent), format_gbps(f.memory.gbps), f.memory.name,
             f.peaks.where),
         faster_code_fix(in)});
    return;
  }
  const double percent = 100 * f.gflops / f.ceiling.gops;
  if (percent >= why_limits::kFarBelowRoofPercent) return;
  out.push_back(
      {"compute-far-below-peak",
       fmt::format("A compute-bound kernel ({} op/B, above the ridge) at {} GOP/s: {} of its ceiling "
                   "({} GOP/s, {} on {}).",
                   format_intensity(f.intensity), format_gflops(f.gflops), format_percent(percent),
                   format_gflops(f.ceiling.gops), f.ceiling.name, f.peaks.where),
       faster_code_fix(in)});
}

}  // namespace ks::report::why
