#include "cli/topo_bnb_estimate.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "io/atomic_file.hpp"
#include "topo/bnb/bnb.hpp"
#include "topo/inputs/numbers.hpp"

namespace ks::cli {

namespace {

// More probes than this would take hours at n = 20 (about a millisecond each on one thread, docs/PERF.md).
constexpr int kMaxProbes = 100'000'000;

}  // namespace

int run_topo_bnb_estimate(const TopoBnbEstimateCall& call, const GlobalOptions& global) {
  if (call.probes < 1 || call.probes > kMaxProbes)
    throw_usage(fmt::format("--estimate {}: the number of probes must be 1 to {}", call.probes, kMaxProbes),
                "give --estimate 10000 (about 1% standard error on QAPLIB's nug instances)");
  const inputs::TopoInputs& in = *call.inputs;
  const topo::Problem problem = topo::make_problem(in.traffic, in.configs);
  Engine engine(Engine::Options{call.threads ? call.threads : global.threads});
  fmt::print("topo: {} nodes from {}, {} configuration(s), placements bnb: estimating the proof's tree from {} "
             "random probes on CPU ({} threads)\n",
             problem.n, in.traffic.source, problem.configs, call.probes, engine.pool().size());
  std::fflush(stdout);
  const topo::BnbEstimate e = topo::estimate_proof(problem, {}, call.probes, engine.pool());
  nlohmann::ordered_json j;
  j["schema"] = "kernelscope.topo.bnb-estimate/1";
  j["kernelscope_version"] = KS_VERSION;
  j["source"] = in.traffic.source;
  if (!in.qaplib_instance.empty()) j["qaplib"] = in.qaplib_instance;
  j["probes"] = call.probes;
  nlohmann::ordered_json configs = nlohmann::ordered_json::array();
  for (const topo::ProofEstimate& c : e.configurations) {
    const std::string incumbent = topo::format_scaled(c.incumbent.scaled, problem.decimals);
    const std::string& name = in.configs[std::size_t(c.configuration)].name;
    fmt::print("{}: about {:.2e} nodes (standard error {:.1e}, {:.1f}%), from the incumbent {} of the tabu search\n",
               name, c.tree.nodes, c.tree.standard_error,
               c.tree.nodes > 0 ? 100 * c.tree.standard_error / c.tree.nodes : 0.0, incumbent);
    configs.push_back({{"configuration", name},
                       {"incumbent", incumbent},
                       {"nodes", c.tree.nodes},
                       {"standard_error", c.tree.standard_error}});
  }
  j["configurations"] = configs;
  j["seconds"] = e.seconds;
  j["search_seconds"] = e.search_seconds;
  fmt::print("estimated in {:.1f} s (the incumbents' search {:.1f} s). The proof explores about this many nodes "
             "when the incumbent is optimal; divide by the nodes/s a short proof reports here (--time 30) for the "
             "time it will take\n",
             e.seconds, e.search_seconds);
  if (!call.json.empty()) {
    write_text_atomically(call.json, j.dump(2) + "\n");
    fmt::print("wrote {}\n", call.json);
  }
  return 0;
}

}  // namespace ks::cli
