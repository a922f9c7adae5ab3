#include "report/topo_search_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "report/svg_chart.hpp"
#include "report/table.hpp"
#include "core/error.hpp"
#include "topo/inputs/numbers.hpp"
#include "topo/inputs/qaplib.hpp"

namespace ks::report {

using nlohmann::ordered_json;

namespace {

std::string cost_text(const topo::SearchResult& r, const topo::Cost& c) {
  return r.exact ? topo::format_scaled(c.scaled, r.decimals) : fmt::format("{:.17g}", c.value);
}

ordered_json cost_json(const topo::SearchResult& r, const topo::Cost& c) {
  return r.exact && r.decimals == 0 ? ordered_json(c.scaled) : ordered_json(c.value);
}

std::string slice_name(const topo::SearchResult& r, const TopoContext& ctx, int slice) {
  if (r.problem->summed_slice && slice == r.problem->timestamps) return "sum";
  return ctx.traffic->timestamps.at(std::size_t(slice));
}

const std::string& config_name(const TopoContext& ctx, int c) {
  return (*ctx.configs)[std::size_t(c)].name;
}

std::string seconds_text(double s) {
  return s < 10 ? fmt::format("{:.3f} s", s) : fmt::format("{:.1f} s", s);
}

}  // namespace

std::optional<SearchReference> search_reference(const std::string& reference_text,
                                                const std::string& qaplib_dat, int n) {
  if (!reference_text.empty()) {
    const auto v = topo::parse_double(reference_text);
    if (!v || !std::isfinite(*v))
      throw_usage("--reference '" + reference_text + "' is not a number",
                  "give the cost to compare with, e.g. 6124");
    return SearchReference{*v, "--reference"};
  }
  if (qaplib_dat.empty()) return std::nullopt;
  const std::filesystem::path sln = topo::qaplib_solution_path(qaplib_dat);
  const auto solution = topo::read_qaplib_solution(sln);
  if (!solution) return std::nullopt;
  if (solution->n != n)
    throw_io(
        fmt::format("{} is a solution for n = {}, but the instance has n = {}", sln.string(), solution->n, n),
        "the .sln beside a .dat must be the same instance's; move it away or give --reference");
  return SearchReference{double(solution->value), sln.filename().string() + " (best known)"};
}

std::optional<double> gap_percent(double cost, const SearchReference& ref) {
  if (ref.cost == 0) return std::nullopt;
  return (cost - ref.cost) / std::fabs(ref.cost) * 100;
}

nlohmann::ordered_json reference_json(double cost, const SearchReference& ref) {
  const auto gap = gap_percent(cost, ref);
  return {{"cost", ref.cost},
          {"source", ref.source},
          {"gap_percent", gap ? ordered_json(*gap) : ordered_json(nullptr)},
          {"text", gap_text(cost, ref)}};
}

std::string gap_text(double cost, const SearchReference& ref) {
  const std::string against =
      ref.source == "--reference"
          ? "--reference " + fmt::format("{:.15g}", ref.cost)
          : fmt::format("the best known ({:.15g}, {})", ref.cost, ref.source.substr(0, ref.source.find(' ')));
  const auto gap = gap_percent(cost, ref);
  if (!gap)
    return cost == ref.cost ? "equal to " + against
                            : fmt::format("{:.15g} from {}", cost - ref.cost, against);
  return fmt::format("{:.2f}% {} {}", std::fabs(*gap), *gap < 0 ? "below" : "above", against);
}

std::string search_text(const topo::SearchResult& r, const TopoContext& ctx,
                        const std::optional<SearchReference>& ref) {
  const topo::TrafficSeries& tr = *ctx.traffic;
  std::string out;
  Table table({{"configuration"},
               {"best cost", Table::Align::Right},
               {"time to best", Table::Align::Right},
               {"iterations", Table::Align::Right},
               {"restarts", Table::Align::Right},
               {"placement (node at position 1, 2, ...)"}});
  for (const auto& c : r.configurations)
    table.add_row({config_name(ctx, c.configuration), cost_text(r, c.best), seconds_text(c.time_to_best_s),
                   fmt::format("{}", c.iterations), fmt::format("{}", c.restarts),
                   joined(placement_names(tr, c.placement))});
  out += table.render();
  const topo::ConfigurationSearch& best = r.best();
  out += fmt::format("best: cost {} on {}{}: {}\n", cost_text(r, best.best),
                     config_name(ctx, best.configuration),
                     r.problem->summed_slice ? " (traffic summed over the timestamps)" : "",
                     joined(placement_names(tr, best.placement)));
  if (r.problem->timestamps > 1) {
    std::string per;
    for (int t = 0; t < r.problem->timestamps; ++t)
      per += fmt::format("{}{}: {}", t ? ", " : "", slice_name(r, ctx, t),
                         cost_text(r, best.slice_costs[std::size_t(t)]));
    out += "  its cost per timestamp: " + per + "\n";
  }
  if (!ctx.qaplib_instance.empty())
    out += fmt::format("QAPLIB {}: objective {}\n", ctx.qaplib_instance, cost_text(r, best.best));
  if (ref) out += fmt::format("gap: {}\n", gap_text(best.best.value, *ref));
  std::uint64_t iterations = 0, evaluations = 0;
  for (const auto& c : r.configurations) {
    iterations += c.iterations;
    evaluations += c.evaluations;
  }
  out += fmt::format(
      "{} {} iterations ({} swap evaluations) of {} chains in {}: {}iterations/s, {}swap evaluations/s on {} "
      "({} arithmetic); stopped by {}\n",
      topo::to_string(r.params.algorithm), iterations, evaluations, r.chains, seconds_text(r.seconds),
      rate_text(r.iterations_per_second), rate_text(r.evaluations_per_second), r.device, r.arithmetic,
      r.stopped_by == "cancel" ? "Ctrl-C (the best so far is shown)" : r.stopped_by);
  if (!r.launch.empty()) out += "launch: " + r.launch + "\n";
  for (const auto& n : r.notes) out += "note: " + n + "\n";
  return out;
}

ordered_json search_json(const topo::SearchResult& r, const TopoContext& ctx,
                         const std::optional<SearchReference>& ref) {
  const topo::TrafficSeries& tr = *ctx.traffic;
  ordered_json j;
  j["schema"] = "kernelscope.topo.search/1";
  j["kernelscope_version"] = KS_VERSION;
  const topo::ConfigurationSearch& best = r.best();
  j["best"] = {{"cost", cost_json(r, best.best)},
               {"placement", placement_names(tr, best.placement)},
               {"configuration", config_name(ctx, best.configuration)},
               {"timestamp", slice_name(r, ctx, r.slice)},
               {"time_to_best_s", best.time_to_best_s}};
  if (r.exact) j["best"]["cost_exact"] = cost_text(r, best.best);
  if (ref) j["reference"] = reference_json(best.best.value, *ref);
  j["complete"] = r.complete;
  j["stopped_by"] = r.stopped_by;
  j["traffic"] = {
      {"source", tr.source}, {"unit", tr.unit}, {"nodes", tr.nodes}, {"timestamps", tr.timestamps}};
  j["metric"] = ctx.metric;
  if (!ctx.qaplib_instance.empty())
    j["qaplib"] = {{"instance", ctx.qaplib_instance}, {"objective", cost_json(r, best.best)}};
  j["exact"] = r.exact;
  j["decimals"] = r.decimals;
  ordered_json params = ordered_json::object();
  const topo::SearchParams& q = r.params;
  params["algorithm"] = topo::to_string(q.algorithm);
  params["chains"] = r.chains;
  params["sync"] = r.sync;
  params["tenure_rule"] = topo::to_string(q.tenure_rule);
  params["tenure"] = q.tenure;
  params["band_low"] = q.band_low;
  params["band_high"] = q.band_high;
  params["aspiration"] = q.aspiration;
  params["accept_start"] = q.accept_start;
  params["accept_end"] = q.accept_end;
  params["cycle"] = q.cycle;
  params["tabu_stall"] = q.tabu_stall;
  params["anneal_stall"] = q.anneal_stall;
  params["restart_from"] = topo::to_string(q.restart_from);
  params["perturb"] = q.perturb;
  params["perturb_max"] = q.perturb_max;
  params["elites"] = q.elites;
  params["block"] = q.block;
  params["matrix_bits"] = q.matrix_bits;
  j["params"] = params;
  ordered_json configs = ordered_json::array();
  for (const auto& c : r.configurations) {
    ordered_json jc;
    jc["configuration"] = config_name(ctx, c.configuration);
    jc["cost"] = cost_json(r, c.best);
    jc["placement"] = placement_names(tr, c.placement);
    ordered_json per = ordered_json::array();
    for (int s = 0; s < r.problem->slices; ++s)
      per.push_back(
          {{"timestamp", slice_name(r, ctx, s)}, {"cost", cost_json(r, c.slice_costs[std::size_t(s)])}});
    jc["costs"] = per;
    jc["time_to_best_s"] = c.time_to_best_s;
    jc["iterations_to_best"] = c.iterations_to_best;
    jc["iterations"] = c.iterations;
    jc["evaluations"] = c.evaluations;
    jc["restarts"] = c.restarts;
    jc["seconds"] = c.seconds;
    jc["reached_target"] = c.reached_target;
    ordered_json curve = ordered_json::array();
    for (const auto& p : c.curve)
      curve.push_back({{"time_s", p.time_s}, {"iterations", p.iterations}, {"cost", cost_json(r, p.best)}});
    jc["curve"] = curve;
    configs.push_back(jc);
  }
  j["configurations"] = configs;
  j["timing"] = {{"device", r.device},
                 {"launch", r.launch},
                 {"arithmetic", r.arithmetic},
                 {"chains", r.chains},
                 {"seconds", r.seconds},
                 {"iterations_per_second", r.iterations_per_second},
                 {"evaluations_per_second", r.evaluations_per_second}};
  j["notes"] = r.notes;
  return j;
}

std::string search_chart_svg(const topo::SearchResult& r, const TopoContext& ctx,
                             const std::optional<SearchReference>& ref) {
  const topo::ConfigurationSearch& best = r.best();
  const auto& curve = best.curve;
  double lo = curve.back().best.value, hi = curve.front().best.value;
  if (ref) lo = std::min(lo, ref->cost), hi = std::max(hi, ref->cost);
  const SvgCostChart chart(best.seconds, lo, hi);
  const std::string title =
      fmt::format("{}: {} search, {} chains on {}",
                  ctx.qaplib_instance.empty() ? config_name(ctx, best.configuration) : ctx.qaplib_instance,
                  topo::to_string(r.params.algorithm), r.chains, r.device);
  std::string s = chart.open(title, "best cost");
  const double right = SvgCostChart::W - SvgCostChart::right;
  if (ref) {
    s += fmt::format("<path d=\"M{:.1f} {:.1f} H{:.1f}\" stroke=\"#c00\" stroke-dasharray=\"6 4\"/>\n",
                     SvgCostChart::left, chart.y(ref->cost), right);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\" fill=\"#c00\">{} {:.15g}</text>\n",
                     right - 4, chart.y(ref->cost) - 6, ref->source, ref->cost);
  }
  // The best so far is a step function: flat until the next improvement.
  std::vector<std::pair<double, double>> points;
  for (const auto& p : curve) points.push_back({p.time_s, p.best.value});
  s += chart.steps(points, "#1f5fbf");
  s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">best {} after {}</text>\n", right - 4,
                   SvgCostChart::top + 14, cost_text(r, best.best), seconds_text(best.time_to_best_s));
  s += "</svg>\n";
  return s;
}

}  // namespace ks::report
