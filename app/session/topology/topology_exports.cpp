// The Topology document's exports: the CLI's report writers (cli/topo_report) over the last sweep, plus what
// the panel shows of the selection. Atomic writes.
#include <nlohmann/json.hpp>

#include "report/topo_report.hpp"
#include "report/topo_bnb_report.hpp"
#include "report/topo_search_report.hpp"
#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "session/topology/topology_document.hpp"

namespace ks::app {

namespace {

report::TopoContext context_of(const TopologyRun& run) {
  report::TopoContext ctx;
  ctx.traffic = &run.inputs->traffic;
  ctx.configs = &run.inputs->configs;
  ctx.metric = run.inputs->qaplib_instance.empty() ? run.inputs->metric : "given";
  ctx.placements = run.settings.placements;
  ctx.qaplib_instance = run.inputs->qaplib_instance;
  return ctx;
}

const TopologyRun& require_run(const TopologyRun* run) {
  if (!run) throw_usage("there is no topology result to export yet", "run a sweep first");
  return *run;
}

}  // namespace

void TopologyDocument::export_csv(const std::filesystem::path& path) const {
  const TopologyRun& run = require_run(run_.get());
  write_text_atomically(path, report::topo_csv(run.result, context_of(run)));
}

void TopologyDocument::export_json(const std::filesystem::path& path) const {
  const TopologyRun& run = require_run(run_.get());
  const topo::EvalResult& r = run.result;
  const report::TopoContext ctx = context_of(run);
  // A search: its own report (convergence curves, gap to the best known), as `topo --placements search --json`.
  std::optional<report::SearchReference> ref;
  if (run.reference) ref = report::SearchReference{*run.reference, run.reference_source};
  // A proof: its report with the `proof` object and the gap curves, as `topo --placements bnb --json`.
  nlohmann::ordered_json j = run.proof    ? report::bnb_json(*run.proof, ctx, ref)
                             : run.search ? report::search_json(*run.search, ctx, ref)
                                          : report::topo_json(r, ctx);
  nlohmann::ordered_json sel;
  sel["timestamp"] = report::slice_label(r, run.inputs->traffic, selection_.slice);
  sel["configuration"] = run.inputs->configs[std::size_t(selection_.configuration)].name;
  sel["top_rank"] = selection_.top_rank >= 0 ? nlohmann::ordered_json(selection_.top_rank + 1) : nullptr;
  const std::vector<int> placement = selected_placement();
  sel["placement"] = report::placement_names(run.inputs->traffic, placement);
  const std::optional<topo::Cost> cost = selected_cost();
  sel["cost"] = cost ? nlohmann::ordered_json(cost->value) : nullptr;
  if (const std::optional<LoadedNetwork> net = selected_network()) {
    nlohmann::ordered_json links = nlohmann::ordered_json::array();
    for (const LoadedNetwork::Edge& e : net->edges)
      links.push_back({{"link", e.name},
                       {"a", net->labels[std::size_t(e.a)]},
                       {"b", net->labels[std::size_t(e.b)]},
                       {"weight", e.weight},
                       {"load", e.load}});
    sel["links"] = links;
    sel["load_times_weight"] = net->weighted_total;
  } else {
    sel["links"] = nullptr;  // path costs only: no routes
  }
  j["selection"] = sel;
  write_text_atomically(path, j.dump(2) + "\n");
}

}  // namespace ks::app
