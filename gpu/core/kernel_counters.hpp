#pragma once
// Hardware counters of one kernel launch, read through CUPTI's range profiler (core/cuda/counter_profiler.cu):
// what a report's "counters" object holds and the "Why" explainer reads. Without CUDA, or where the driver
// forbids counters, a run has none (CounterAvailability says why, once).
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ks {

// Which metrics a reading asks for. The GPU counts only a few L1 events at a time, so sectors and requests, bank
// conflicts and the hit rates each need a pass of their own, and the SM throughput (the busiest of the SM's units)
// needs eight: All replays each kernel 9 times, Quick once (docs/PERF.md, "What a reading costs").
//   Quick: duration, DRAM bytes and throughput, achieved occupancy, shared instructions, warp efficiency.
//   All:   every field of KernelCounters.
enum class CounterSet { Quick, All };
const char* to_string(CounterSet set);
// "quick" or "all"; a usage Error saying which words there are otherwise.
CounterSet parse_counter_set(std::string_view word);

// Each field is the Nsight Compute metric named beside it, for the one launch profiled. Percentages run 0..100.
// A metric the reading's CounterSet does not hold is NaN (JSON null, "not read" in text), as is what derives
// from it.
struct KernelCounters {
  std::string kernel_name;             // the launch profiled (the main pass of a multi-pass variant)
  double duration_ms = 0;              // gpu__time_duration.sum (the profiled launch; counters slow it a little)
  double dram_read_bytes = 0;          // dram__bytes_read.sum
  double dram_write_bytes = 0;         // dram__bytes_write.sum
  double dram_throughput_pct = 0;      // dram__throughput.avg.pct_of_peak_sustained_elapsed
  double sm_throughput_pct = 0;        // sm__throughput.avg.pct_of_peak_sustained_elapsed
  double achieved_occupancy_pct = 0;   // sm__warps_active.avg.pct_of_peak_sustained_active
  double l1_hit_rate_pct = 0;          // l1tex__t_sector_hit_rate.pct
  double l2_hit_rate_pct = 0;          // lts__t_sector_hit_rate.pct
  double global_load_sectors = 0;      // l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  double global_load_requests = 0;     // l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  double global_store_sectors = 0;     // l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
  double global_store_requests = 0;    // l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
  double shared_load_instructions = 0;   // smsp__inst_executed_op_shared_ld.sum
  double shared_store_instructions = 0;  // smsp__inst_executed_op_shared_st.sum
  double shared_load_bank_conflicts = 0;   // l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  double shared_store_bank_conflicts = 0;  // l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  // smsp__thread_inst_executed_per_inst_executed.ratio / 32 * 100: the share of a warp's lanes that run each
  // instruction (100: no divergence and no idle lanes).
  double warp_execution_efficiency_pct = 0;

  // How they were read: the set, the passes CUPTI ran the launch for (kernel replay), the wall time of the launch
  // under the profiler (start to stop, replays included) and of the whole reading (configuring to evaluating).
  CounterSet set = CounterSet::All;
  int passes = 0;
  double replay_ms = 0;
  double read_ms = 0;

  // Derived: what the explainer and the tables print.
  double dram_bytes() const { return dram_read_bytes + dram_write_bytes; }
  // 0 where there were no requests (instructions); NaN where the counts were not read.
  double load_sectors_per_request() const { return ratio(global_load_sectors, global_load_requests); }
  double store_sectors_per_request() const { return ratio(global_store_sectors, global_store_requests); }
  // Extra shared-memory wavefronts per shared instruction (0: conflict-free).
  double bank_conflicts_per_shared_instruction() const {
    return ratio(shared_load_bank_conflicts + shared_store_bank_conflicts,
                 shared_load_instructions + shared_store_instructions);
  }

 private:
  static double ratio(double part, double whole) {
    if (std::isnan(part) || std::isnan(whole)) return std::numeric_limits<double>::quiet_NaN();  // not read
    return whole > 0 ? part / whole : 0;
  }
};

// What asking for counters gave: the counters, or why there are none and what to do (say it once per process).
struct CounterReading {
  std::optional<KernelCounters> counters;
  std::string unavailable;  // empty when there are counters
};

// The metrics the profiler asks CUPTI for with CounterSet::All, in a fixed order: the fields above plus the
// weights that combine the ranges of a variant that launches several kernels (gpu__time_duration,
// l1tex__t_sectors, lts__t_sectors, smsp__thread_inst_executed, smsp__inst_executed).
std::span<const char* const> counter_metric_names();
// Those of a set, as positions in counter_metric_names() (All: every position, in order).
std::span<const std::size_t> counter_metric_positions(CounterSet set);

// One KernelCounters from the values of each kernel launched (one range per launch; each vector in the order of
// counter_metric_names(), NaN for a metric not read): counts add up, throughputs and occupancy are averaged over
// the launches' durations, hit rates over their sectors, and warp efficiency is the threads' instructions over
// the warps' instructions.
KernelCounters combine_ranges(const std::vector<std::vector<double>>& ranges, std::string kernel_name);

// Whether /proc/driver/nvidia/params (its text) lets only administrators read GPU counters.
bool profiling_restricted_to_admins(std::string_view nvidia_params);
// The message for a driver that refuses counters (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, ERR_NVGPUCTRPERM): what
// happened and the exact fix.
std::string counters_forbidden_message();
// Why a run that asked for counters has none: it ran on the CPU backend (`what`: "this run", "this simulation").
std::string counters_on_cpu_message(const std::string& what);

}  // namespace ks
