#pragma once
// The hardware counters of a run (core/kernel_counters.hpp) as reports show them: the "counters" object of every
// report JSON and the lines the CLI prints under its timing table. Shared by the CLI and the GUI.
//
// "counters": null | {
//   "kernel_name", "duration_ms",
//   "dram": {"read_bytes", "write_bytes", "bytes", "throughput_pct", "intensity"},   intensity: the cost model's
//                                                     operations / the DRAM bytes measured (null without them)
//   "sm_throughput_pct", "achieved_occupancy_pct", "l1_hit_rate_pct", "l2_hit_rate_pct",
//   "global_loads": {"sectors", "requests", "sectors_per_request"}, "global_stores": {same},
//   "shared": {"load_instructions", "store_instructions", "load_bank_conflicts", "store_bank_conflicts",
//              "conflicts_per_instruction"},
//   "warp_execution_efficiency_pct",
//   "passes", "replay_ms", "read_ms"   how they were read: CUPTI's passes over the launch, the launch under the
//                                      profiler (replays included) and the whole reading, wall clock
// }
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/kernel_counters.hpp"
#include "core/occupancy.hpp"

namespace ks::report {

// `operations`: what the run's cost model counts (0: no measured intensity).
nlohmann::ordered_json counters_json(const std::optional<KernelCounters>& counters, double operations);

// Operations per DRAM byte measured (0 when nothing reached DRAM): the roofline's second dot.
double measured_intensity(const KernelCounters& counters, double operations);

// The lines under a report's timing table ("" without counters). `occupancy`: the theoretical occupancy beside
// the achieved one, when the report has it.
std::string counters_text(const KernelCounters& counters, const std::optional<OccupancyReport>& occupancy,
                          double operations);

}  // namespace ks::report
