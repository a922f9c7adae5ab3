#include "report/topo_bnb_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/svg_chart.hpp"
#include "report/table.hpp"

namespace ks::report {

using nlohmann::ordered_json;

namespace {

ordered_json cost_json(const topo::BnbResult& r, const topo::Cost& c) {
  return r.decimals == 0 ? ordered_json(c.scaled) : ordered_json(c.value);
}

const std::string& config_name(const TopoContext& ctx, int c) { return (*ctx.configs)[std::size_t(c)].name; }

std::string seconds_text(double s) { return s < 10 ? fmt::format("{:.3f} s", s) : fmt::format("{:.1f} s", s); }

std::string stop_text(const topo::BnbResult& r) {
  return r.stopped_by == "cancel" ? "Ctrl-C" : r.stopped_by == "time" ? "the time limit" : r.stopped_by;
}

ordered_json proof_json(const topo::BnbResult& r, const topo::BnbProof& p) {
  return {{"optimal", p.optimal},
          {"nodes", p.nodes},
          {"root_bound", cost_json(r, p.root_bound)},
          {"best_bound", cost_json(r, p.best_bound)},
          {"seconds", p.seconds}};
}

}  // namespace

double proof_gap_percent(const topo::Cost& incumbent, const topo::Cost& bound) {
  if (incumbent.scaled == bound.scaled) return 0;
  return (incumbent.value - bound.value) / std::max(std::fabs(incumbent.value), 1e-300) * 100;
}

std::string bnb_text(const topo::BnbResult& r, const TopoContext& ctx, const std::optional<SearchReference>& ref) {
  const topo::EvalResult e = topo::as_eval_result(r);
  const topo::TrafficSeries& tr = *ctx.traffic;
  std::string out;
  Table table({{"configuration"},
               {"best cost", Table::Align::Right},
               {"proof"},
               {"root bound", Table::Align::Right},
               {"best bound", Table::Align::Right},
               {"nodes", Table::Align::Right},
               {"time", Table::Align::Right},
               {"placement (node at position 1, 2, ...)"}});
  for (const auto& c : r.configurations)
    table.add_row({config_name(ctx, c.configuration), cost_text(e, c.best),
                   c.proof.optimal ? "optimal" : fmt::format("gap {:.2f}%", proof_gap_percent(c.best, c.proof.best_bound)),
                   cost_text(e, c.proof.root_bound), cost_text(e, c.proof.best_bound), fmt::format("{}", c.proof.nodes),
                   seconds_text(c.proof.seconds), joined(placement_names(tr, c.placement))});
  out += table.render();
  const topo::ConfigurationProof& best = r.best();
  out += fmt::format("best: cost {} on {}{}: {}\n", cost_text(e, best.best), config_name(ctx, best.configuration),
                     r.problem->summed_slice ? " (traffic summed over the timestamps)" : "",
                     joined(placement_names(tr, best.placement)));
  if (r.problem->timestamps > 1) {
    std::string per;
    for (int t = 0; t < r.problem->timestamps; ++t)
      per += fmt::format("{}{}: {}", t ? ", " : "", slice_label(e, tr, t), cost_text(e, best.slice_costs[std::size_t(t)]));
    out += "  its cost per timestamp: " + per + "\n";
  }
  const topo::BnbProof all = r.overall();
  if (all.optimal) {
    out += fmt::format("proved optimal: no placement costs less than {}{} ({} nodes in {}, root bound {})\n",
                       cost_text(e, best.best), r.configurations.size() > 1 ? " on any configuration" : "", all.nodes,
                       seconds_text(all.seconds), cost_text(e, all.root_bound));
  } else {
    out += fmt::format(
        "not proved (stopped by {}): the best found costs {}, no placement costs less than {} (gap {:.2f}%); {} "
        "nodes in {}\n",
        stop_text(r), cost_text(e, best.best), cost_text(e, all.best_bound),
        proof_gap_percent(best.best, all.best_bound), all.nodes, seconds_text(all.seconds));
  }
  if (!ctx.qaplib_instance.empty())
    out += fmt::format("QAPLIB {}: objective {}\n", ctx.qaplib_instance, cost_text(e, best.best));
  if (ref) out += fmt::format("reference: {}\n", gap_text(best.best.value, *ref));
  out += fmt::format("branch and bound (Gilmore-Lawler bound) on {}: {}nodes/s; incumbent from tabu search {}{}\n",
                     r.device, rate_text(r.nodes_per_second), cost_text(e, best.search_best),
                     r.sessions > 1 ? fmt::format("; {} sessions", r.sessions) : "");
  for (const auto& n : r.notes) out += "note: " + n + "\n";
  return out;
}

ordered_json bnb_json(const topo::BnbResult& r, const TopoContext& ctx, const std::optional<SearchReference>& ref) {
  const topo::EvalResult e = topo::as_eval_result(r);
  const topo::TrafficSeries& tr = *ctx.traffic;
  ordered_json j;
  j["schema"] = "kernelscope.topo.bnb/1";
  j["kernelscope_version"] = KS_VERSION;
  const topo::ConfigurationProof& best = r.best();
  j["best"] = {{"cost", cost_json(r, best.best)},
               {"cost_exact", cost_text(e, best.best)},
               {"placement", placement_names(tr, best.placement)},
               {"configuration", config_name(ctx, best.configuration)},
               {"timestamp", slice_label(e, tr, r.slice)}};
  j["proof"] = proof_json(r, r.overall());
  if (ref) j["reference"] = reference_json(best.best.value, *ref);
  j["complete"] = r.complete;
  j["stopped_by"] = r.stopped_by;
  j["traffic"] = {{"source", tr.source}, {"unit", tr.unit}, {"nodes", tr.nodes}, {"timestamps", tr.timestamps}};
  j["metric"] = ctx.metric;
  if (!ctx.qaplib_instance.empty())
    j["qaplib"] = {{"instance", ctx.qaplib_instance}, {"objective", cost_json(r, best.best)}};
  j["exact"] = r.exact;
  j["decimals"] = r.decimals;
  ordered_json configs = ordered_json::array();
  for (const auto& c : r.configurations) {
    ordered_json jc;
    jc["configuration"] = config_name(ctx, c.configuration);
    jc["cost"] = cost_json(r, c.best);
    jc["placement"] = placement_names(tr, c.placement);
    ordered_json per = ordered_json::array();
    for (int s = 0; s < r.problem->slices; ++s)
      per.push_back({{"timestamp", slice_label(e, tr, s)}, {"cost", cost_json(r, c.slice_costs[std::size_t(s)])}});
    jc["costs"] = per;
    jc["search_cost"] = cost_json(r, c.search_best);
    jc["proof"] = proof_json(r, c.proof);
    jc["frontier_depth"] = c.frontier_depth;
    jc["subtrees"] = c.subtrees;
    ordered_json curve = ordered_json::array();
    for (const auto& g : c.curve)
      curve.push_back({{"time_s", g.time_s},
                       {"nodes", g.nodes},
                       {"bound", cost_json(r, g.bound)},
                       {"incumbent", cost_json(r, g.incumbent)}});
    jc["curve"] = curve;
    configs.push_back(jc);
  }
  j["configurations"] = configs;
  j["timing"] = {{"device", r.device},
                 {"threads", r.threads},
                 {"seconds", r.seconds},
                 {"search_seconds", r.search_seconds},
                 {"nodes_per_second", r.nodes_per_second},
                 {"sessions", r.sessions}};
  ordered_json feeders = ordered_json::array();
  for (const auto& f : r.feeders)
    feeders.push_back({{"device", f.device},
                       {"batches", f.time.batches},
                       {"nodes", f.time.nodes},
                       {"evaluate_seconds", f.time.evaluate_s},
                       {"device_seconds", f.time.device_s}});
  j["timing"]["feeders"] = feeders;
  j["timing"]["shared_pieces"] = r.shared_pieces;
  j["checkpoint"] = r.checkpoint;
  j["notes"] = r.notes;
  return j;
}

std::string bnb_chart_svg(const topo::BnbResult& r, const TopoContext& ctx) {
  const topo::ConfigurationProof& best = r.best();
  double t_max = 0, lo = 0, hi = 1;
  std::vector<std::pair<double, double>> bound, incumbent;
  for (const auto& g : best.curve) {
    t_max = std::max(t_max, g.time_s);
    lo = bound.empty() ? g.bound.value : std::min(lo, g.bound.value);
    hi = incumbent.empty() ? g.incumbent.value : std::max(hi, g.incumbent.value);
    bound.push_back({g.time_s, g.bound.value});
    incumbent.push_back({g.time_s, g.incumbent.value});
  }
  const SvgCostChart chart(t_max, lo, hi);
  std::string s = chart.open(
      fmt::format("{}: branch and bound on {}, {}",
                  ctx.qaplib_instance.empty() ? config_name(ctx, best.configuration) : ctx.qaplib_instance, r.device,
                  best.proof.optimal ? "proved optimal" : "not proved"),
      "cost");
  // Both are step functions: flat until the next change.
  s += chart.steps(incumbent, "#1f5fbf");
  s += chart.steps(bound, "#c05010");
  const double right = SvgCostChart::W - SvgCostChart::right;
  s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\" fill=\"#1f5fbf\">best found</text>\n",
                   right - 4, SvgCostChart::top + 14);
  s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\" fill=\"#c05010\">lower bound</text>\n",
                   right - 4, SvgCostChart::top + 30);
  s += "</svg>\n";
  return s;
}

}  // namespace ks::report
