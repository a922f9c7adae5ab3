#include "cli/lab_report_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/counters_report.hpp"
#include "report/report_text.hpp"
#include "report/table.hpp"
#include "report/text_format.hpp"

namespace ks::cli {

using report::format_bytes;
using report::format_gbps;
using report::format_ms;
using report::format_percent;
using report::roofline_line;
using report::Table;

namespace {

std::string size_text(const lab::LabReport& r) {
  if (r.size.form == lab::SizeForm::Elements) {
    const std::string s = lab::short_text(r.size.n());
    return fmt::format("n = {}{}", r.size.n(), s == std::to_string(r.size.n()) ? "" : " (" + s + ")");
  }
  return fmt::format("{} = {}", lab::to_string(r.size.form), lab::to_string(r.size));
}

std::string launch_text(const lab::LaunchArithmetic& a) {
  std::string grid = a.grid_y > 1 ? fmt::format("{}x{}", a.grid_x, a.grid_y) : std::to_string(a.grid_x);
  std::string out = fmt::format("launch ({}): {} blocks x {} threads ({}) = {} threads for {} items", a.kernel_name, grid,
                                a.threads_per_block, to_string(a.block), a.total_threads, a.work_items);
  if (a.items_per_thread > 1)
    out += fmt::format("; {:.1f} items per thread (a grid-stride loop)", a.items_per_thread);
  else
    out += fmt::format("; {} idle thread{}", a.idle_threads, a.idle_threads == 1 ? "" : "s");
  out += "\n";
  if (a.slots > 0)
    out += fmt::format("  {} blocks per SM x {} SMs = {} blocks per wave: {:.2f} waves ({} full{})\n", a.blocks_per_sm,
                       a.sms, a.slots, a.waves, a.full_waves,
                       a.tail_wave_occupancy < 1 ? fmt::format(", the last {:.0f}% full", 100 * a.tail_wave_occupancy)
                                                 : "");
  return out;
}

std::string rate(double bytes, double ms) {
  return ms > 0 && bytes > 0 ? format_gbps(bytes / (ms * 1e6)) + " GB/s" : "";
}

}  // namespace

std::string timeline_chart(const std::vector<lab::TimelineBar>& bars, int width, double end) {
  if (bars.empty()) return {};
  for (const auto& b : bars) end = std::max(end, b.end_ms);
  if (end <= 0) return {};
  std::string out = fmt::format("  0 .. {} ms, one column = {} ms; each bar is drawn with its stream's number\n",
                                format_ms(end), format_ms(end / width));
  for (const char* lane : {"upload", "kernel", "download"}) {
    std::string row(std::size_t(width), '.');
    for (const auto& b : bars) {
      if (b.lane != lane) continue;
      int from = int(std::floor(b.start_ms / end * width)), to = int(std::ceil(b.end_ms / end * width));
      from = std::clamp(from, 0, width - 1);
      to = std::clamp(std::max(to, from + 1), 1, width);
      for (int c = from; c < to; ++c) row[std::size_t(c)] = char('0' + b.stream % 10);
    }
    out += fmt::format("  {:<8} |{}|\n", lane, row);
  }
  return out;
}

std::string lab_report_text(const lab::LabReport& r) {
  std::string out = fmt::format("{} {} {} on {}", r.kernel, r.variant, size_text(r), r.device);
  if (r.backend == Backend::Cuda) {
    out += fmt::format(", block {}, host memory {}", r.block ? to_string(*r.block) : "-", lab::to_string(r.host));
    if (r.streams > 1) out += fmt::format(", {} streams, {} chunks", r.streams, r.chunks);
  }
  out += "\n";
  if (!r.params.empty()) {
    std::string p;
    for (const auto& [name, value] : r.params) p += (p.empty() ? "" : ", ") + name + "=" + value;
    out += "params: " + p + "\n";
  }
  if (r.launch) out += launch_text(*r.launch);
  if (r.occupancy)
    out += fmt::format("  occupancy {:.0f}% ({} registers per thread, limited by {})\n", 100 * r.occupancy->occupancy,
                       r.occupancy->registers_per_thread, r.occupancy->limiter);

  out += fmt::format("timings (median of {} after {} warm-up{}):\n", r.kernel_time.count, r.warmup,
                     r.streams > 1 ? "; the serial run's" : "");
  Table t({{"step"}, {"median ms", Table::Align::Right}, {"min ms", Table::Align::Right}, {"rate"}});
  std::uint64_t up = 0, down = 0;
  for (const auto& b : r.streams > 1 ? r.serial_timeline : r.timeline) {
    if (b.lane == "upload") up += b.bytes;
    if (b.lane == "download") down += b.bytes;
  }
  if (r.backend == Backend::Cuda) {
    t.add_row({"upload", format_ms(r.upload_time.median_ms), format_ms(r.upload_time.min_ms),
               up ? rate(double(up), r.upload_time.median_ms) + " (" + format_bytes(up) + ")" : "no copies"});
  }
  std::string kernel_rate = format_gbps(r.gbps) + " GB/s";
  if (r.percent_of_copy > 0)
    kernel_rate += fmt::format(", {} of the copy bandwidth ({} GB/s)", format_percent(r.percent_of_copy),
                               format_gbps(r.copy_bandwidth_gbps));
  if (r.gflops > 0) kernel_rate += fmt::format(", {:.4g} GFLOP/s", r.gflops);
  if (r.giga_comparisons_per_s > 0) kernel_rate += fmt::format(", {:.4g} G comparisons/s", r.giga_comparisons_per_s);
  if (r.percent_of_peak_flops) kernel_rate += fmt::format(" ({} of peak)", format_percent(*r.percent_of_peak_flops));
  t.add_row({"kernel", format_ms(r.kernel_time.median_ms), format_ms(r.kernel_time.min_ms), kernel_rate});
  if (r.backend == Backend::Cuda) {
    t.add_row({"download", format_ms(r.download_time.median_ms), format_ms(r.download_time.min_ms),
               down ? rate(double(down), r.download_time.median_ms) + " (" + format_bytes(down) + ")" : "no copies"});
    t.add_row({r.streams > 1 ? "end to end (streams)" : "end to end", format_ms(r.end_to_end_time.median_ms),
               format_ms(r.end_to_end_time.min_ms), ""});
  }
  out += t.render(2);
  if (std::string roof = roofline_line(r.roofline); !roof.empty()) out += "  " + roof + "\n";
  if (r.counters) out += report::counters_text(*r.counters, r.occupancy, double(r.cost.operations));
  if (r.streams > 1) {
    out += fmt::format("streams: end to end {} ms = {:.2f}x the serial upload + kernel + download ({} ms)",
                       format_ms(r.end_to_end_time.median_ms), r.overlap_ratio, format_ms(r.serial_sum_ms));
    if (r.streamed_matches_serial)
      out += *r.streamed_matches_serial ? "; the result is byte-identical to the serial run's"
                                        : "; the result DIFFERS from the serial run's";
    out += "\n";
  }
  if (r.operation_kind == lab::OperationKind::Comparison)
    out += fmt::format("cost: {} moved, {} comparisons ({:.3g} comparisons per byte; comparisons are no "
                       "floating-point operations: no FLOP roof applies)\n",
                       format_bytes(r.cost.bytes), r.cost.operations, r.comparisons_per_byte);
  else
    out += fmt::format("cost: {} moved, {} operations ({:.3g} operations per byte)\n", format_bytes(r.cost.bytes),
                       r.cost.operations, r.arithmetic_intensity);
  if (r.cpu_reference_ms > 0 && r.backend == Backend::Cuda)
    out += fmt::format("CPU reference: {} ms ({:.1f}x the kernel)\n", format_ms(r.cpu_reference_ms),
                       r.kernel_time.median_ms > 0 ? r.cpu_reference_ms / r.kernel_time.median_ms : 0.0);
  out += "check: " + std::string(!r.check.checked ? "" : r.check.agrees ? "agrees with the CPU. " : "DISAGREES with the CPU. ") +
         r.check.detail + "\n";
  for (const auto& f : r.facts) out += fmt::format("{}: {}\n", f.name, f.value);
  for (const auto& s : r.series) {
    std::string v;
    for (std::size_t i = 0; i < s.values.size(); ++i)
      v += (i ? ", " : "") + fmt::format("{:.6g}", s.values[i]);
    out += fmt::format("{} per {}: {}\n", s.name, s.x_label, v);
  }
  for (const auto& n : r.notes) out += "note: " + n + "\n";
  if (r.streams > 1) {
    // One scale for both, so the streamed run's shorter span shows.
    double end = 0;
    for (const auto& b : r.serial_timeline) end = std::max(end, b.end_ms);
    out += "timeline, serial:\n" + timeline_chart(r.serial_timeline, 72, end);
    out += "timeline, streams:\n" + timeline_chart(r.timeline, 72, end);
  }
  return out;
}

}  // namespace ks::cli
