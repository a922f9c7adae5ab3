// A search's result in the sweep's form, so that the sweep's views and exports show it.
#include "topo/search/search.hpp"

namespace ks::topo {

EvalResult as_eval_result(const SearchResult& r) {
  std::vector<ConfigurationPlacement> rows;
  std::uint64_t evaluations = 0;
  for (const ConfigurationSearch& cs : r.configurations) {
    rows.push_back({cs.configuration, &cs.placement, &cs.slice_costs});
    evaluations += cs.evaluations;
  }
  EvalResult e = eval_result_of_placements(*r.problem, r.slice, r.complete, rows);
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
