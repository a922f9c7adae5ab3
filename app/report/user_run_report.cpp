#include "report/user_run_report.hpp"

#include "core/occupancy_model.hpp"
#include "core/timing.hpp"

namespace ks::report {

std::optional<OccupancyReport> user_occupancy(const usercode::CompiledKernel& kernel,
                                              const usercode::EntryAttributes& attributes, const DeviceInfo& device,
                                              std::array<unsigned, 2> block) {
  // The compiler's report where NVRTC gave it, else what the driver says of the loaded entry.
  const usercode::KernelFacts& f = kernel.entry_facts();
  if (!f.resources_reported && !attributes.known) return std::nullopt;
  const int registers = f.resources_reported ? f.registers : attributes.registers;
  const int shared = f.resources_reported ? f.shared_bytes : attributes.shared_bytes;
  const BlockResources resources{static_cast<int>(block[0] * block[1]), registers, static_cast<std::size_t>(shared)};
  const OccupancyLimits limits = occupancy_limits(device, resources);
  OccupancyReport o;
  o.kernel_name = f.name;
  o.block_threads = resources.threads;
  o.registers_per_thread = registers;
  o.static_shared_bytes = resources.shared_bytes;
  o.active_blocks_per_sm = limits.active_blocks;
  o.occupancy = limits.occupancy;
  o.limiter = limits.limiter;
  return o;
}

RunReport user_stencil_report(const UserRunContext& c, const ImageShape& shape, std::array<unsigned, 2> block,
                              const usercode::WorkerReply& reply) {
  RunReport r;
  r.kernel = c.file_name;
  r.variant = "yours";
  r.backend = Backend::Cuda;
  r.device = c.device;
  r.shape = shape;
  r.params = c.params;
  r.block = BlockShape{static_cast<int>(block[0]), static_cast<int>(block[1])};
  r.upload_ms = reply.upload_ms;
  r.download_ms = reply.download_ms;
  r.kernel_time = TimingStats::of(reply.kernel_ms);
  r.cost.bytes = 2 * static_cast<std::uint64_t>(shape.byte_size());
  r.cost.operations = 0;
  if (r.kernel_time.median_ms > 0) r.gbps = double(r.cost.bytes) / (r.kernel_time.median_ms * 1e6);
  r.copy_bandwidth_gbps = c.copy_bandwidth_gbps;
  if (r.copy_bandwidth_gbps > 0) r.percent_of_copy = 100.0 * r.gbps / r.copy_bandwidth_gbps;
  if (c.device_info) r.occupancy = user_occupancy(*c.kernel, reply.attributes, *c.device_info, block);
  r.roofline = roofline_figures(r.cost.operations, r.cost.bytes, r.kernel_time.median_ms, c.peaks);
  if (reply.counters) {
    r.counters = reply.counters->counters;
    r.counters_unavailable = reply.counters->unavailable;
  }
  return r;
}

nlohmann::ordered_json user_kernel_json(const std::string& file_name, const usercode::CompiledKernel& kernel) {
  const usercode::KernelFacts& f = kernel.entry_facts();
  auto figure = [&](int v) { return f.resources_reported ? nlohmann::ordered_json(v) : nullptr; };
  return {{"file", file_name},
          {"entry", f.name},
          {"family", kernel.family ? usercode::to_string(*kernel.family) : ""},
          {"compile_ms", kernel.module->compile_ms},
          {"from_cache", kernel.from_cache},
          {"registers", figure(f.registers)},
          {"stack_bytes", figure(f.stack_bytes)},
          {"spill_stores", figure(f.spill_stores)},
          {"spill_loads", figure(f.spill_loads)},
          {"shared_bytes", figure(f.shared_bytes)},
          {"max_threads_per_block", figure(f.max_threads_per_block)}};
}

}  // namespace ks::report
