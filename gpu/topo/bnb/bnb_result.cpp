// A proof's result in the sweep's form, so that the sweep's views and CSV show it.
#include "topo/bnb/bnb.hpp"

namespace ks::topo {

EvalResult as_eval_result(const BnbResult& r) {
  std::vector<ConfigurationPlacement> rows;
  for (const ConfigurationProof& c : r.configurations) rows.push_back({c.configuration, &c.placement, &c.slice_costs});
  EvalResult e = eval_result_of_placements(*r.problem, r.slice, r.complete, rows);
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
