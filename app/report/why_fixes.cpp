#include "report/why_fixes.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

#include "registry/registry.hpp"

namespace ks::report::why {

std::vector<std::string> later_variants(const WhyInput& in) {
  const KernelSpec* spec = KernelRegistry::builtin().find(in.kernel);
  if (!spec || !spec->find_variant(in.variant)) return {};
  ParamSet params = spec->default_params();
  try {
    for (const auto& [name, value] : in.params) params.set(name, value);
  } catch (const std::exception&) {
    return {};  // parameters of another build: no variant can be promised
  }
  std::vector<std::string> later;
  bool after = false;
  for (const VariantSpec& v : spec->variants) {
    if (v.name == in.variant) {
      after = true;
      continue;
    }
    if (!after || v.backend != in.backend) continue;
    if (spec->unavailable_reason && spec->unavailable_reason(v.name, params)) continue;
    later.push_back(v.name);
  }
  return later;
}

std::string variant_fix(const WhyInput& in) {
  const std::vector<std::string> later = later_variants(in);
  if (later.empty()) return {};
  const KernelSpec& spec = KernelRegistry::builtin().get(in.kernel);
  std::string help = spec.find_variant(later[0])->help;
  if (const auto semicolon = help.find(';'); semicolon != std::string::npos) help.resize(semicolon);
  std::string s = fmt::format("--variant {} ({})", later[0], help);
  if (later.size() > 1) s += fmt::format(", or --variant {}", later[1]);
  return s;
}

std::string block_option(const WhyInput& in, BlockShape block) {
  if (in.block_rank == 1 && block.y == 1) return fmt::format("--block {}", block.x);
  return "--block " + to_string(block);
}

std::optional<OccupancyLimits> occupancy_at(const WhyInput& in, BlockShape block) {
  if (!in.device || !in.resources_at) return std::nullopt;
  const std::optional<BlockResources> resources = in.resources_at(block);
  if (!resources) return std::nullopt;
  if (!block_problem(*in.device, block.x, block.y, *resources).empty()) return std::nullopt;
  OccupancyLimits limits = occupancy_limits(*in.device, *resources);
  if (limits.active_blocks <= 0) return std::nullopt;
  return limits;
}

std::optional<BlockChoice> block_raising_occupancy(const WhyInput& in, double occupancy, double gain_points) {
  const int threads = in.block ? in.block->threads() : 256;
  std::optional<BlockChoice> best;
  for (const BlockShape& b : in.candidate_blocks) {
    const auto limits = occupancy_at(in, b);
    if (!limits) continue;
    const bool better = !best || limits->occupancy > best->limits.occupancy + 1e-9 ||
                        (std::abs(limits->occupancy - best->limits.occupancy) <= 1e-9 &&
                         std::abs(b.threads() - threads) < std::abs(best->block.threads() - threads));
    if (better) best = BlockChoice{b, *limits};
  }
  if (!best || (best->limits.occupancy - occupancy) * 100 < gain_points) return std::nullopt;
  return best;
}

}  // namespace ks::report::why
