// A search's result in the sweep's form, so that the sweep's views and exports show it.
#include "topo/search/search.hpp"

namespace ks::topo {

EvalResult as_eval_result(const SearchResult& r) {
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
  for (int s = 0; s < p.slices; ++s)
    for (int c = 0; c < p.configs; ++c) {
      SliceResult& out = e.slices[std::size_t(s) * std::size_t(p.configs) + std::size_t(c)];
      out.slice = s;
      out.configuration = c;
    }
  std::uint64_t evaluations = 0;
  for (const ConfigurationSearch& cs : r.configurations) {
    evaluations += cs.evaluations;
    for (int s = 0; s < p.slices; ++s) {
      SliceResult& out = e.slices[std::size_t(s) * std::size_t(p.configs) + std::size_t(cs.configuration)];
      out.count = 1;
      out.min = out.max = cs.slice_costs[std::size_t(s)];
      out.mean = out.min.value;
      out.argmin = std::uint64_t(cs.configuration);
      out.placement = cs.placement;
    }
  }
  e.evaluations = evaluations;
  e.timing.device = r.device;
  e.timing.variant = std::string("search ") + to_string(r.params.algorithm);
  e.timing.sweep.evaluations = evaluations;
  e.timing.sweep.time.count = 1;
  e.timing.sweep.time.min_ms = e.timing.sweep.time.median_ms = e.timing.sweep.time.mean_ms =
      e.timing.sweep.time.p95_ms = r.seconds * 1e3;
  e.timing.evaluations_per_second = r.evaluations_per_second;
  e.timing.launch = r.launch;
  e.notes = r.notes;
  return e;
}

}  // namespace ks::topo
