#include "cli/bench_roofline.hpp"

#include <fmt/format.h>

#include "core/launch_shape.hpp"
#include "lab/lab_size.hpp"
#include "report/counters_report.hpp"

namespace ks::cli {

std::string roofline_label(const BenchCase& c) {
  std::string s = c.lab_size ? fmt::format("{} {} {}", c.spec->id, c.variant, lab::to_string(*c.lab_size))
                             : fmt::format("{} {} {}", c.spec->id, c.variant, to_string(c.type));
  if (c.block) s += ' ' + to_string(*c.block);
  return s;
}

std::vector<report::RooflineSeries> roofline_series(const std::vector<BenchRow>& rows,
                                                    const std::map<Backend, ComputePeaks>& peaks) {
  std::vector<report::RooflineSeries> out;
  for (const auto& [backend, backend_peaks] : peaks) {
    report::RooflineSeries s;
    s.peaks = backend_peaks;
    for (const auto& r : rows) {
      if (r.status != BenchRow::Status::Ok || r.bench_case.backend != backend) continue;
      const RooflineFigures& f = r.report.roofline;
      s.points.push_back({roofline_label(r.bench_case), f.intensity, f.gflops, f.gbps, f.ceiling, f.memory});
      // With --counters: the same result at the intensity DRAM saw (the caches' saving, or extra traffic).
      if (r.report.counters && r.report.counters->dram_bytes() > 0)
        s.points.push_back({roofline_label(r.bench_case) + " (DRAM)",
                            report::measured_intensity(*r.report.counters, double(r.report.cost.operations)),
                            f.gflops, f.gbps, f.ceiling, f.memory});
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace ks::cli
