#include "report/why_input.hpp"

#include "core/error.hpp"
#include "registry/registry.hpp"
#include "sim/sim_geometry.hpp"
#include "sim/sim_kernel_resources.hpp"
#include "stencil/stencil_geometry.hpp"
#include "stencil/stencil_kernel_resources.hpp"
#include "stencil/stencil_plan.hpp"

namespace ks::report {

namespace {

// 2-D blocks of whole warps per row (the shapes every kernel here reads best), 64 to 1024 threads: where the
// explainer looks for a block that raises the occupancy.
std::vector<BlockShape> warp_wide_blocks() {
  std::vector<BlockShape> blocks;
  for (int x : {32, 64, 128, 256})
    for (int y : {1, 2, 4, 8, 16, 32})
      if (x * y >= 64 && x * y <= 1024) blocks.push_back({x, y});
  return blocks;
}

// The report's own figures at its own block; the geometry's table elsewhere (registers as the GPU reported
// them where it did: they are the kernel's, whatever the block).
BlockResources resources_from(const KernelResources& table, BlockShape block,
                              const std::optional<OccupancyReport>& measured) {
  return {block.threads(), measured ? measured->registers_per_thread : table.registers_per_thread,
          table.shared_bytes};
}

ParamSet params_of(const KernelSpec& spec, const std::vector<std::pair<std::string, std::string>>& text) {
  ParamSet params = spec.default_params();
  for (const auto& [name, value] : text) params.set(name, value);
  return params;
}

// What every report holds under the same names.
template <class Report>
WhyInput common_input(const char* family, const Report& r, const TimingStats& kernel_time,
                      const DeviceInfo* device) {
  WhyInput in;
  in.family = family;
  in.kernel = r.kernel;
  in.variant = r.variant;
  in.params = r.params;
  in.backend = r.backend;
  in.block = r.block;
  in.occupancy = r.occupancy;
  if (device) in.device = *device;
  in.kernel_time = kernel_time;
  in.first_launch_ms = r.first_launch_ms;
  in.copy_bandwidth_gbps = r.copy_bandwidth_gbps;
  in.roofline = r.roofline;
  in.counters = r.counters;
  return in;
}

using GeometryAt = std::function<std::optional<LaunchGeometry>(BlockShape)>;
using ResourcesOf = std::function<std::optional<KernelResources>(const LaunchGeometry&)>;

// A 2-D launch of one thread per pixel or cell: how its grid fills the device at the run's block, and the
// grid and resources at the candidate blocks, from the family's geometry and resource table.
void add_launch(WhyInput& in, const GeometryAt& geometry_at, const ResourcesOf& resources_of) {
  if (auto g = geometry_at(*in.block); g && in.device && in.occupancy)
    in.fill = WhyLaunchFill{g->blocks(), in.device->sm_count, in.occupancy->active_blocks_per_sm};
  in.candidate_blocks = warp_wide_blocks();
  in.grid_blocks_at = [geometry_at](BlockShape b) -> long long {
    const auto g = geometry_at(b);
    return g ? g->blocks() : 0;
  };
  in.resources_at = [geometry_at, resources_of,
                     measured = in.occupancy](BlockShape b) -> std::optional<BlockResources> {
    const auto g = geometry_at(b);
    if (!g) return std::nullopt;
    const auto table = resources_of(*g);
    if (!table) return std::nullopt;
    return resources_from(*table, b, measured);
  };
}

}  // namespace

WhyInput why_input(const RunReport& r, const DeviceInfo* device) {
  WhyInput in = common_input("stencil", r, r.kernel_time, device);
  in.upload_ms = r.upload_ms;
  in.download_ms = r.download_ms;
  // The naive kernels load one pixel a lane (all its channels); tiled and separable load vectors of their
  // own.
  if (r.variant == "naive") in.lane_bytes = int(elem_size(r.shape.type)) * r.shape.channels;

  const KernelSpec* spec = KernelRegistry::builtin().find(r.kernel);
  if (!spec || spec->category != "stencil" || !r.block) return in;  // a user's kernel, or the CPU backend
  StencilPlan plan;
  try {
    plan = make_stencil_plan(spec->id, params_of(*spec, r.params));
  } catch (const Error&) {
    return in;  // parameters this build does not know: no launch to model
  }
  const ImageShape shape = r.shape;
  const std::string variant = r.variant;
  add_launch(
      in,
      [plan, shape, variant](BlockShape b) {
        return stencil_geometry(plan, variant, shape.width, shape.height, b, shape.type, shape.channels)
            .geometry;
      },
      [plan, shape, variant](const LaunchGeometry& g) {
        return stencil_kernel_resources(plan, variant, shape.type, shape.channels, g);
      });
  return in;
}

WhyInput why_input(const lab::LabReport& r, const DeviceInfo* device) {
  WhyInput in = common_input("lab", r, r.kernel_time, device);
  in.upload_ms = r.upload_time.median_ms;
  in.download_ms = r.download_time.median_ms;
  if (r.backend == Backend::Cuda) in.host = r.host;
  in.streams = r.streams;
  if (r.launch) in.fill = WhyLaunchFill{r.launch->blocks, r.launch->sms, r.launch->blocks_per_sm};
  const KernelSpec* spec = KernelRegistry::builtin().find(r.kernel);
  if (spec && spec->lab) {
    in.block_rank = spec->lab->info().block_rank;
    in.candidate_blocks = spec->lab->info().bench_blocks;
  }
  // A lab kernel's shared memory is its own business (a tile, a partial per warp): the report's, at any
  // block, is the best known without the GPU's answer for that block.
  if (r.occupancy)
    in.resources_at = [o = *r.occupancy](BlockShape b) -> std::optional<BlockResources> {
      return BlockResources{b.threads(), o.registers_per_thread,
                            o.static_shared_bytes + o.dynamic_shared_bytes};
    };
  return in;
}

WhyInput why_input(const SimulationReport& r, const DeviceInfo* device) {
  WhyInput in = common_input("simulation", r, r.step_time, device);
  // Life's cells are bytes (bit-packed: 64-bit words), heat's and Gray-Scott's floats (strip, temporal: 4 at a
  // time).
  if (r.kernel == "life")
    in.lane_bytes = r.variant == "bitpacked" ? 8 : 1;
  else
    in.lane_bytes = r.variant == "strip" || r.variant == "temporal" ? 16 : 4;
  if (!r.block || r.backend != Backend::Cuda) return in;
  const std::string kernel = r.kernel, variant = r.variant;
  const int width = r.width, height = r.height;
  add_launch(
      in,
      [kernel, variant, width, height](BlockShape b) {
        return sim_geometry(kernel, variant, width, height, b).geometry;
      },
      [kernel, variant](const LaunchGeometry& g) { return sim_kernel_resources(kernel, variant, g); });
  return in;
}

}  // namespace ks::report
