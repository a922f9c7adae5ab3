#include "report/report_text.hpp"

#include <fmt/format.h>

#include "report/counters_report.hpp"
#include "report/text_format.hpp"

namespace ks::report {

std::string run_heading(const RunReport& r) {
  std::string s = fmt::format("{} (variant {}", r.kernel, r.variant);
  if (r.block) s += ", block " + to_string(*r.block);
  s += ") on " + r.device;
  if (r.backend == Backend::Cuda) s += " via CUDA";  // the CPU's device name already says it
  if (!r.cpu_simd.empty()) s += ", SIMD " + r.cpu_simd;
  s += fmt::format("; image {}; {} timed run{}", format_shape(r.shape), r.kernel_time.count,
                   r.kernel_time.count == 1 ? "" : "s");
  return s;
}

std::string occupancy_cell(const RunReport& r) {
  if (!r.occupancy) return "-";
  const auto& o = *r.occupancy;
  std::string s = fmt::format("{:.0f}%", o.occupancy * 100.0);
  if (!o.limiter.empty()) s += " (" + o.limiter + ")";
  return s;
}

std::string occupancy_line(const RunReport& r) {
  if (!r.occupancy) return {};
  const auto& o = *r.occupancy;
  std::string s =
      fmt::format("occupancy {:.0f}% ({} block{} of {} threads per SM)", o.occupancy * 100.0,
                  o.active_blocks_per_sm, o.active_blocks_per_sm == 1 ? "" : "s", o.block_threads);
  if (!o.limiter.empty()) s += ", limited by " + o.limiter;
  s += fmt::format("; {} registers/thread, {} shared memory per block", o.registers_per_thread,
                   format_bytes(o.static_shared_bytes + o.dynamic_shared_bytes));
  if (o.dynamic_shared_bytes)
    s += fmt::format(" ({} static + {} dynamic)", format_bytes(o.static_shared_bytes),
                     format_bytes(o.dynamic_shared_bytes));
  if (!o.kernel_name.empty()) s += " [" + o.kernel_name + "]";
  return s;
}

Table run_timing_table(const RunReport& r) {
  using A = Table::Align;
  Table t({{"step", A::Left},
           {"median ms", A::Right},
           {"min ms", A::Right},
           {"p95 ms", A::Right},
           {"bytes moved", A::Right},
           {"GB/s", A::Right},
           {"% copy BW", A::Right},
           {"occupancy", A::Left}});
  // The CPU backend works on host memory: there is no transfer to time.
  const bool copies = r.backend == Backend::Cuda;
  auto transfer = [&](double ms) { return copies ? format_ms(ms) : std::string("-"); };
  t.add_row({"upload", transfer(r.upload_ms)});
  t.add_row({"kernel", format_ms(r.kernel_time.median_ms), format_ms(r.kernel_time.min_ms),
             format_ms(r.kernel_time.p95_ms), format_bytes(r.cost.bytes), format_gbps(r.gbps),
             format_percent(r.percent_of_copy), occupancy_cell(r)});
  t.add_row({"download", transfer(r.download_ms)});
  return t;
}

std::string roofline_line(const RooflineFigures& f) {
  if (f.peaks.fma_gflops <= 0 && f.peaks.memory_gbps <= 0) return {};
  if (f.intensity <= 0 && f.peaks.memory_gbps > 0)  // no FLOPs (sort counts comparisons): only the memory roof
    return fmt::format(
        "roofline: no floating-point operations counted, {} GB/s = {} of the memory roof ({}: {} GB/s "
        "{})",
        format_gbps(f.gbps), format_percent(f.percent_of_roof), f.peaks.where, format_gbps(f.memory.gbps),
        f.memory.name);
  if (f.ceiling.name.empty())  // a kind without a measured ceiling (an older device record)
    return fmt::format("roofline: {} op/B, {} GOP/s, {} GB/s ({}: no measured ceiling for these operations)",
                       format_intensity(f.intensity), format_gflops(f.gflops), format_gbps(f.gbps),
                       f.peaks.where);
  return fmt::format(
      "roofline: {} op/B, {} GOP/s, {} GB/s = {} of the roof ({}: {} ceiling {} GOP/s, {} {} GB/s)",
      format_intensity(f.intensity), format_gflops(f.gflops), format_gbps(f.gbps),
      format_percent(f.percent_of_roof), f.peaks.where, f.ceiling.name, format_gflops(f.ceiling.gops),
      f.memory.name, format_gbps(f.memory.gbps));
}

std::string run_report_text(const RunReport& r) {
  std::string s = run_heading(r) + '\n' + run_timing_table(r).render();
  if (r.copy_bandwidth_gbps > 0)
    s += fmt::format("measured device copy bandwidth: {} GB/s\n", format_gbps(r.copy_bandwidth_gbps));
  if (std::string occ = occupancy_line(r); !occ.empty()) s += occ + '\n';
  if (std::string roof = roofline_line(r.roofline); !roof.empty()) s += roof + '\n';
  if (r.counters) s += counters_text(*r.counters, r.occupancy, double(r.cost.operations));
  return s;
}

}  // namespace ks::report
