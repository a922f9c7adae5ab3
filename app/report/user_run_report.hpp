#pragma once
// A run of a user's kernel as the built-ins' reports show it: the same RunReport (timings, bytes that must move,
// GB/s, % of the copy bandwidth, occupancy from the compiler's facts, the roofline), so the timing table, the JSON
// and the app's Timing panel treat it like any built-in kernel; plus what only a user kernel has (its file, entry,
// compile facts), as JSON.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/device_info.hpp"
#include "engine/engine.hpp"
#include "usercode/run/launch_plan.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::report {

struct UserRunContext {
  std::string file_name;
  const usercode::CompiledKernel* kernel = nullptr;
  std::string device;                  // the worker's GPU
  const DeviceInfo* device_info = nullptr;  // for the occupancy; null: none reported
  double copy_bandwidth_gbps = 0;
  ComputePeaks peaks;
  std::vector<std::pair<std::string, std::string>> params;  // as the user typed them
};

// The occupancy of a user kernel at `block` on `device`: from the compiler's report where NVRTC gave it, else from
// what the driver said of the loaded entry (`attributes`); none when neither is known.
std::optional<OccupancyReport> user_occupancy(const usercode::CompiledKernel& kernel,
                                              const usercode::EntryAttributes& attributes, const DeviceInfo& device,
                                              std::array<unsigned, 2> block);

// The report of a stencil run: cost = one read and one write of the image (as the built-ins'); no operations are
// counted for a kernel whose arithmetic is unknown, so its roofline point sits on the memory slope.
RunReport user_stencil_report(const UserRunContext& context, const ImageShape& shape,
                              std::array<unsigned, 2> block, const usercode::WorkerReply& reply);

// {"file", "entry", "family", "compile_ms", "from_cache", "registers", "stack_bytes", "spill_stores",
//  "spill_loads", "shared_bytes", "max_threads_per_block"} (null where ptxas gave no report)
nlohmann::ordered_json user_kernel_json(const std::string& file_name, const usercode::CompiledKernel& kernel);

}  // namespace ks::report
