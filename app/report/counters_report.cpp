#include "report/counters_report.hpp"

#include <fmt/format.h>

#include <cmath>

#include "report/text_format.hpp"

namespace ks::report {

namespace {

nlohmann::ordered_json finite_or_null(double v) {
  return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

}  // namespace

double measured_intensity(const KernelCounters& c, double operations) {
  return c.dram_bytes() > 0 ? operations / c.dram_bytes() : 0;
}

nlohmann::ordered_json counters_json(const std::optional<KernelCounters>& counters, double operations) {
  if (!counters) return nullptr;
  const KernelCounters& c = *counters;
  const double intensity = measured_intensity(c, operations);
  return {{"kernel_name", c.kernel_name},
          {"duration_ms", finite_or_null(c.duration_ms)},
          {"dram",
           {{"read_bytes", finite_or_null(c.dram_read_bytes)},
            {"write_bytes", finite_or_null(c.dram_write_bytes)},
            {"bytes", finite_or_null(c.dram_bytes())},
            {"throughput_pct", finite_or_null(c.dram_throughput_pct)},
            {"intensity", operations > 0 && intensity > 0 ? finite_or_null(intensity)
                                                          : nlohmann::ordered_json(nullptr)}}},
          {"sm_throughput_pct", finite_or_null(c.sm_throughput_pct)},
          {"achieved_occupancy_pct", finite_or_null(c.achieved_occupancy_pct)},
          {"l1_hit_rate_pct", finite_or_null(c.l1_hit_rate_pct)},
          {"l2_hit_rate_pct", finite_or_null(c.l2_hit_rate_pct)},
          {"global_loads",
           {{"sectors", finite_or_null(c.global_load_sectors)},
            {"requests", finite_or_null(c.global_load_requests)},
            {"sectors_per_request", finite_or_null(c.load_sectors_per_request())}}},
          {"global_stores",
           {{"sectors", finite_or_null(c.global_store_sectors)},
            {"requests", finite_or_null(c.global_store_requests)},
            {"sectors_per_request", finite_or_null(c.store_sectors_per_request())}}},
          {"shared",
           {{"load_instructions", finite_or_null(c.shared_load_instructions)},
            {"store_instructions", finite_or_null(c.shared_store_instructions)},
            {"load_bank_conflicts", finite_or_null(c.shared_load_bank_conflicts)},
            {"store_bank_conflicts", finite_or_null(c.shared_store_bank_conflicts)},
            {"conflicts_per_instruction", finite_or_null(c.bank_conflicts_per_shared_instruction())}}},
          {"warp_execution_efficiency_pct", finite_or_null(c.warp_execution_efficiency_pct)},
          {"set", to_string(c.set)},
          {"passes", c.passes},
          {"replay_ms", finite_or_null(c.replay_ms)},
          {"read_ms", finite_or_null(c.read_ms)}};
}

std::string counters_text(const KernelCounters& c, const std::optional<OccupancyReport>& occupancy,
                          double operations) {
  std::string s = fmt::format("counters of one more launch ({}, {} ms with the counters on):\n", c.kernel_name,
                              format_ms(c.duration_ms));
  s += fmt::format("  DRAM      {} read + {} written = {} ({} of its peak throughput)",
                   format_bytes(std::uint64_t(c.dram_read_bytes)), format_bytes(std::uint64_t(c.dram_write_bytes)),
                   format_bytes(std::uint64_t(c.dram_bytes())), format_percent(c.dram_throughput_pct));
  if (const double intensity = measured_intensity(c, operations); operations > 0 && intensity > 0)
    s += fmt::format("; {} op per DRAM byte", format_intensity(intensity));
  s += '\n';
  const bool all = c.set == CounterSet::All;
  constexpr const char* kNotRead = "not read (--counters=quick)";
  s += fmt::format("  SM        {}; achieved occupancy {}",
                   all ? format_percent(c.sm_throughput_pct) + " of its peak throughput" : std::string(kNotRead),
                   format_percent(c.achieved_occupancy_pct));
  if (occupancy) s += fmt::format(" (theoretical {})", format_percent(occupancy->occupancy * 100.0));
  s += '\n';
  if (all) {
    s += fmt::format("  caches    L1 hit rate {}, L2 hit rate {}\n", format_percent(c.l1_hit_rate_pct),
                     format_percent(c.l2_hit_rate_pct));
    s += fmt::format("  global    {:.2f} sectors per load request, {:.2f} per store request\n",
                     c.load_sectors_per_request(), c.store_sectors_per_request());
    s += fmt::format("  shared    {:.0f} bank conflicts over {:.0f} shared instructions ({:.2f} per instruction)\n",
                     c.shared_load_bank_conflicts + c.shared_store_bank_conflicts,
                     c.shared_load_instructions + c.shared_store_instructions,
                     c.bank_conflicts_per_shared_instruction());
  } else {
    s += fmt::format("  caches, sectors per request, bank conflicts: {}\n", kNotRead);
    s += fmt::format("  shared    {:.0f} shared instructions\n",
                     c.shared_load_instructions + c.shared_store_instructions);
  }
  s += fmt::format("  warps     {} of the lanes run each instruction (warp execution efficiency)\n",
                   format_percent(c.warp_execution_efficiency_pct));
  s += fmt::format("  read in   {} pass{} over the launch ({} counters), {} ms in all\n", c.passes,
                   c.passes == 1 ? "" : "es", to_string(c.set), format_ms(c.read_ms));
  return s;
}

}  // namespace ks::report
