// A proof's result in the sweep's form, so that the sweep's views and CSV show it.
#include "topo/bnb/bnb.hpp"

namespace ks::topo {

EvalResult as_eval_result(const BnbResult& r) {
  const Problem& p = *r.problem;
  EvalResult e;
  e.problem = r.problem;
  e.mode = PlacementMode::Given;
  e.exact = r.exact;
  e.decimals = r.decimals;
  e.complete = r.complete;
  e.top_slice = r.slice;
  e.placements = r.configurations.size();
  e.range_end = e.evaluated_end = e.placements;
  e.slices.resize(std::size_t(p.slices) * std::size_t(p.configs));
  for (const ConfigurationProof& c : r.configurations)
    for (int s = 0; s < p.slices; ++s) {
      SliceResult& out = e.slices[std::size_t(s) * std::size_t(p.configs) + std::size_t(c.configuration)];
      out.slice = s;
      out.configuration = c.configuration;
      out.count = 1;
      out.min = out.max = c.slice_costs[std::size_t(s)];
      out.mean = out.min.value;
      out.argmin = std::uint64_t(c.configuration);
      out.placement = c.placement;
    }
  const BnbProof all = r.overall();
  e.evaluations = all.nodes;
  e.timing.device = r.device;
  e.timing.variant = "branch and bound";
  e.timing.wall_s = r.seconds;
  e.sessions = r.sessions;
  e.checkpoint = r.checkpoint;
  e.stopped = r.stopped_by;
  e.notes = r.notes;
  return e;
}

}  // namespace ks::topo
