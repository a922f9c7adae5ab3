#include "editor/compile_summary.hpp"

#include <fmt/format.h>

namespace ks::editor {

std::vector<FactRow> fact_rows(const usercode::CompiledKernel& kernel) {
  const usercode::KernelFacts& k = kernel.entry_facts();
  auto figure = [&](int value, const char* unit) {
    return k.resources_reported ? fmt::format("{}{}", value, unit) : std::string("-");
  };
  std::vector<FactRow> rows = {
      {"entry", k.signature},
      {"registers / thread", figure(k.registers, "")},
      {"stack frame", figure(k.stack_bytes, " B")},
      {"spill stores", figure(k.spill_stores, " B")},
      {"spill loads", figure(k.spill_loads, " B")},
      {"static shared memory", figure(k.shared_bytes, " B")},
      {"max threads / block", figure(k.max_threads_per_block, "")},
  };
  const usercode::CompiledModule& m = *kernel.module;
  rows.push_back({"compile time", kernel.from_cache
                                      ? fmt::format("from the cache (compiled in {:.0f} ms)", m.compile_ms)
                                      : fmt::format("{:.0f} ms", m.compile_ms)});
  return rows;
}

BlockSize default_block(std::optional<usercode::Family> family) {
  if (family == usercode::Family::Stencil || family == usercode::Family::Step) return {32, 8};
  return {256, 1};
}

EditorOccupancy occupancy_at(const DeviceInfo& device, const usercode::KernelFacts& entry, BlockSize block) {
  EditorOccupancy out;
  if (!entry.resources_reported) {
    out.problem = "the compiler did not report this kernel's registers, which its occupancy needs";
    return out;
  }
  const int threads = block.x * block.y;
  if (entry.max_threads_per_block > 0 && threads > entry.max_threads_per_block) {
    out.problem = fmt::format("this kernel allows at most {} threads per block ({} asked){}",
                              entry.max_threads_per_block, threads,
                              entry.launch_bound ? ": its __launch_bounds__" : ": its registers");
    return out;
  }
  const BlockResources resources{threads, entry.registers, static_cast<std::size_t>(entry.shared_bytes)};
  if (const std::string problem = block_problem(device, block.x, block.y, resources); !problem.empty()) {
    out.problem = device.name + " cannot launch this block: " + problem;
    return out;
  }
  out.limits = occupancy_limits(device, resources);
  return out;
}

std::string occupancy_text(const OccupancyLimits& l) {
  return fmt::format("{:.0f}% occupancy, limited by {}: {} block{} of {} warp{} per SM ({} of {} warps)",
                     100.0 * l.occupancy, l.limiter, l.active_blocks, l.active_blocks == 1 ? "" : "s",
                     l.warps_per_block, l.warps_per_block == 1 ? "" : "s", l.active_blocks * l.warps_per_block,
                     l.max_warps);
}

}  // namespace ks::editor
