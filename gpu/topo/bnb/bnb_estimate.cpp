// estimate_proof(): the incumbents from prove()'s tabu search, then each configuration's tree estimated from
// random probes (tree_estimate.hpp), on the proved slice.
#include <chrono>

#include "topo/bnb/bnb.hpp"
#include "topo/bnb/bnb_state.hpp"

namespace ks::topo {

BnbEstimate estimate_proof(const Problem& p, const BnbRequest& r, int probes, ThreadPool& pool) {
  check_bnb_problem(p);
  using Clock = std::chrono::steady_clock;
  const auto since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  const Clock::time_point start = Clock::now();
  BnbEstimate out;
  const std::vector<ConfigurationState> states = search_incumbents(p, r, pool);
  out.search_seconds = since(start);
  const std::size_t nn = std::size_t(p.n) * std::size_t(p.n);
  const int slice = p.summed_slice ? p.timestamps : 0;  // as prove() proves
  for (const ConfigurationState& st : states) {
    ProofEstimate e;
    e.configuration = st.configuration;
    e.incumbent = Cost{st.incumbent, p.cost_value(st.incumbent)};
    e.tree = estimate_tree(p.traffic_scaled.data() + std::size_t(slice) * nn,
                           p.cost_scaled.data() + std::size_t(st.configuration) * nn, p.n, st.incumbent,
                           r.reduced_cost_pruning, probes, pool);
    out.configurations.push_back(e);
  }
  out.seconds = since(start);
  return out;
}

}  // namespace ks::topo
