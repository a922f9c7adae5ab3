#include "core/kernel_counters.hpp"

#include <array>
#include <cstddef>

#include "core/error.hpp"

namespace ks {

namespace {

// Indices into counter_metric_names(): the order there is the order of every range's values.
enum Metric : std::size_t {
  kDuration,
  kDramRead,
  kDramWrite,
  kDramThroughput,
  kSmThroughput,
  kWarpsActive,
  kL1HitRate,
  kL2HitRate,
  kL1Sectors,
  kL2Sectors,
  kLoadSectors,
  kLoadRequests,
  kStoreSectors,
  kStoreRequests,
  kSharedLoads,
  kSharedStores,
  kSharedLoadConflicts,
  kSharedStoreConflicts,
  kThreadInstructions,
  kWarpInstructions,
  kMetricCount
};

constexpr std::array<const char*, kMetricCount> kMetricNames{
    "gpu__time_duration.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "l1tex__t_sector_hit_rate.pct",
    "lts__t_sector_hit_rate.pct",
    "l1tex__t_sectors.sum",
    "lts__t_sectors.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "smsp__inst_executed_op_shared_ld.sum",
    "smsp__inst_executed_op_shared_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "smsp__thread_inst_executed.sum",
    "smsp__inst_executed.sum",
};

// The one-pass set: the DRAM and SM-wide counters, the shared-memory and warp instruction counts, and no L1 or L2
// sector counts (each of those takes a pass of its own with any other; see CounterSet).
constexpr std::array<std::size_t, 9> kQuickPositions{kDuration,     kDramRead,         kDramWrite,
                                                     kDramThroughput, kWarpsActive,    kSharedLoads,
                                                     kSharedStores, kThreadInstructions, kWarpInstructions};

constexpr std::array<std::size_t, kMetricCount> all_positions() {
  std::array<std::size_t, kMetricCount> a{};
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = i;
  return a;
}
constexpr std::array<std::size_t, kMetricCount> kAllPositions = all_positions();

// The mean of metric `m` over the ranges, each weighted by metric `weight` (falling back to an equal weight
// when every weight is 0, e.g. a hit rate over kernels that touched no sector).
double weighted_mean(const std::vector<std::vector<double>>& ranges, Metric m, Metric weight) {
  double sum = 0, total = 0;
  for (const auto& r : ranges) {
    sum += r[m] * r[weight];
    total += r[weight];
  }
  if (total > 0) return sum / total;
  double plain = 0;
  for (const auto& r : ranges) plain += r[m];
  return ranges.empty() ? 0 : plain / double(ranges.size());
}

double total(const std::vector<std::vector<double>>& ranges, Metric m) {
  double sum = 0;
  for (const auto& r : ranges) sum += r[m];
  return sum;
}

}  // namespace

const char* to_string(CounterSet set) { return set == CounterSet::Quick ? "quick" : "all"; }

CounterSet parse_counter_set(std::string_view word) {
  if (word == "quick") return CounterSet::Quick;
  if (word == "all") return CounterSet::All;
  throw_usage("unknown counter set '" + std::string(word) + "'",
              "say quick (one pass: DRAM, occupancy, warp efficiency) or all (every counter, 9 passes)");
}

std::span<const char* const> counter_metric_names() { return kMetricNames; }

std::span<const std::size_t> counter_metric_positions(CounterSet set) {
  if (set == CounterSet::Quick) return kQuickPositions;
  return kAllPositions;
}

KernelCounters combine_ranges(const std::vector<std::vector<double>>& ranges, std::string kernel_name) {
  for (const auto& r : ranges)
    if (r.size() != kMetricCount)
      throw Error(ErrorKind::Internal, "a counter range has " + std::to_string(r.size()) + " values, not " +
                                           std::to_string(std::size_t(kMetricCount)));
  KernelCounters c;
  c.kernel_name = std::move(kernel_name);
  c.duration_ms = total(ranges, kDuration) * 1e-6;  // the metric counts nanoseconds
  c.dram_read_bytes = total(ranges, kDramRead);
  c.dram_write_bytes = total(ranges, kDramWrite);
  c.dram_throughput_pct = weighted_mean(ranges, kDramThroughput, kDuration);
  c.sm_throughput_pct = weighted_mean(ranges, kSmThroughput, kDuration);
  c.achieved_occupancy_pct = weighted_mean(ranges, kWarpsActive, kDuration);
  c.l1_hit_rate_pct = weighted_mean(ranges, kL1HitRate, kL1Sectors);
  c.l2_hit_rate_pct = weighted_mean(ranges, kL2HitRate, kL2Sectors);
  c.global_load_sectors = total(ranges, kLoadSectors);
  c.global_load_requests = total(ranges, kLoadRequests);
  c.global_store_sectors = total(ranges, kStoreSectors);
  c.global_store_requests = total(ranges, kStoreRequests);
  c.shared_load_instructions = total(ranges, kSharedLoads);
  c.shared_store_instructions = total(ranges, kSharedStores);
  c.shared_load_bank_conflicts = total(ranges, kSharedLoadConflicts);
  c.shared_store_bank_conflicts = total(ranges, kSharedStoreConflicts);
  const double warp_instructions = total(ranges, kWarpInstructions);
  c.warp_execution_efficiency_pct =
      warp_instructions > 0 ? total(ranges, kThreadInstructions) / warp_instructions / 32.0 * 100.0 : 0;
  return c;
}

bool profiling_restricted_to_admins(std::string_view nvidia_params) {
  constexpr std::string_view key = "RmProfilingAdminOnly:";
  const std::size_t at = nvidia_params.find(key);
  if (at == std::string_view::npos) return false;
  std::size_t i = at + key.size();
  while (i < nvidia_params.size() && (nvidia_params[i] == ' ' || nvidia_params[i] == '\t')) ++i;
  return i < nvidia_params.size() && nvidia_params[i] == '1';
}

std::string counters_forbidden_message() {
  return "the NVIDIA driver lets only administrators read the GPU's performance counters (ERR_NVGPUCTRPERM; "
         "RmProfilingAdminOnly: 1 in /proc/driver/nvidia/params), so runs have no counters; everything else works. "
         "To allow them: echo 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' | sudo tee "
         "/etc/modprobe.d/nvidia-profiling.conf, then reboot (or run kernelscope as root)";
}

std::string counters_on_cpu_message(const std::string& what) {
  return "hardware counters are the GPU's, and " + what + " ran on the CPU backend";
}

}  // namespace ks
