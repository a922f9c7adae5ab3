#include "lab/lab_report.hpp"

#include <algorithm>

namespace ks::lab {

LaunchArithmetic launch_arithmetic(const LaunchGeometry& g, int sm_count) {
  LaunchArithmetic a;
  a.kernel_name = g.occupancy.kernel_name;
  a.grid_x = g.grid_x;
  a.grid_y = g.grid_y;
  a.block = g.block;
  a.blocks = g.grid_x * g.grid_y;
  a.threads_per_block = std::int64_t(g.block.x) * g.block.y;
  a.total_threads = a.blocks * a.threads_per_block;
  a.work_items = g.work_items;
  a.idle_threads = std::max<std::int64_t>(0, a.total_threads - g.work_items);
  a.items_per_thread = a.total_threads ? double(g.work_items) / double(a.total_threads) : 0;
  a.blocks_per_sm = g.occupancy.active_blocks_per_sm;
  a.sms = sm_count;
  a.slots = std::int64_t(a.blocks_per_sm) * sm_count;
  if (a.slots > 0) {
    a.waves = double(a.blocks) / double(a.slots);
    a.full_waves = a.blocks / a.slots;
    const std::int64_t tail = a.blocks % a.slots;
    a.tail_wave_occupancy = tail == 0 ? 1.0 : double(tail) / double(a.slots);
  }
  return a;
}

void fill_rates(LabReport& r, const ComputePeaks* peaks) {
  const bool flops = r.operation_kind == OperationKind::Flop;
  if (flops && peaks && peaks->fma_gflops > 0) r.peak_gflops = peaks->fma_gflops;
  const double ms = r.kernel_time.median_ms;
  const double rate = ms > 0 ? double(r.cost.operations) / (ms * 1e6) : 0;
  const double per_byte = r.cost.bytes ? double(r.cost.operations) / double(r.cost.bytes) : 0;
  if (ms > 0) r.gbps = double(r.cost.bytes) / (ms * 1e6);
  (flops ? r.gflops : r.giga_comparisons_per_s) = rate;
  (flops ? r.arithmetic_intensity : r.comparisons_per_byte) = per_byte;
  r.percent_of_copy = r.copy_bandwidth_gbps > 0 ? 100.0 * r.gbps / r.copy_bandwidth_gbps : 0;
  if (r.peak_gflops && *r.peak_gflops > 0) r.percent_of_peak_flops = 100.0 * r.gflops / *r.peak_gflops;
  r.roofline = roofline_figures(flops ? r.cost.roofline_mix() : OpMix{}, r.cost.bytes,
                                r.kernel_time.median_ms, peaks ? *peaks : ComputePeaks{});
}

}  // namespace ks::lab
