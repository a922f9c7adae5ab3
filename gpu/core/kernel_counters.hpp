#pragma once
// Hardware counters of one kernel launch, read through CUPTI's range profiler (core/cuda/counter_profiler.cu):
// what a report's "counters" object holds and the "Why" explainer reads. Without CUDA, or where the driver
// forbids counters, a run has none (CounterAvailability says why, once).
#include <optional>
#include <string>

namespace ks {

// Each field is the Nsight Compute metric named beside it, for the one launch profiled. Percentages run 0..100.
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

  // Derived: what the explainer and the tables print.
  double dram_bytes() const { return dram_read_bytes + dram_write_bytes; }
  double load_sectors_per_request() const {
    return global_load_requests > 0 ? global_load_sectors / global_load_requests : 0;
  }
  double store_sectors_per_request() const {
    return global_store_requests > 0 ? global_store_sectors / global_store_requests : 0;
  }
  // Extra shared-memory wavefronts per shared instruction (0: conflict-free).
  double bank_conflicts_per_shared_instruction() const {
    const double instructions = shared_load_instructions + shared_store_instructions;
    return instructions > 0 ? (shared_load_bank_conflicts + shared_store_bank_conflicts) / instructions : 0;
  }
};

// Whether counters can be read on this machine, and if not, why and what to do (said once per process).
struct CounterAvailability {
  bool available = false;
  std::string reason;  // empty when available
};

}  // namespace ks
