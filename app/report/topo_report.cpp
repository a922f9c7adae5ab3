#include "report/topo_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/report_json.hpp"
#include "report/table.hpp"
#include "report/text_format.hpp"
#include "topo/inputs/numbers.hpp"
#include "topo/sweep/sweep_cost.hpp"

namespace ks::report {

using nlohmann::ordered_json;

std::vector<std::string> placement_names(const topo::TrafficSeries& traffic,
                                         const std::vector<int>& placement) {
  std::vector<std::string> out;
  for (int node : placement) out.push_back(traffic.nodes.at(std::size_t(node)));
  return out;
}

std::string slice_label(const topo::EvalResult& r, const topo::TrafficSeries& traffic, int slice) {
  if (r.problem->summed_slice && slice == r.problem->timestamps) return "sum";
  return traffic.timestamps.at(std::size_t(slice));
}

std::string cost_text(const topo::EvalResult& r, const topo::Cost& c) {
  return r.exact ? topo::format_scaled(c.scaled, r.decimals) : fmt::format("{:.17g}", c.value);
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

std::string rate_text(double per_second) {
  if (per_second >= 1e9) return fmt::format("{:.2f} G", per_second / 1e9);
  if (per_second >= 1e6) return fmt::format("{:.2f} M", per_second / 1e6);
  return fmt::format("{:.0f} ", per_second);
}

namespace {

// Exact costs with no decimals are integers in JSON too (QAPLIB objectives compare as integers).
ordered_json cost_json(const topo::EvalResult& r, const topo::Cost& c) {
  return r.exact && r.decimals == 0 ? ordered_json(c.scaled) : ordered_json(c.value);
}

ordered_json best_json(const topo::EvalResult& r, const TopoContext& ctx, const topo::BestPlacement& b) {
  ordered_json j;
  j["cost"] = cost_json(r, b.cost);
  if (r.exact) j["cost_exact"] = cost_text(r, b.cost);
  j["placement"] = placement_names(*ctx.traffic, b.placement);
  j["timestamp"] = slice_label(r, *ctx.traffic, b.slice);
  j["configuration"] = (*ctx.configs)[std::size_t(b.configuration)].name;
  j["index"] = b.index;
  return j;
}

ordered_json pass_json(const topo::PassTiming& p) {
  return {{"time_ms", to_json(p.time)}, {"evaluations", p.evaluations}};
}

}  // namespace

std::string topo_text(const topo::EvalResult& r, const TopoContext& ctx) {
  const topo::TrafficSeries& tr = *ctx.traffic;
  std::string out;
  Table table({{"timestamp"},
               {"configuration"},
               {"min cost", Table::Align::Right},
               {"mean", Table::Align::Right},
               {"max", Table::Align::Right},
               {"best placement (node at position 1, 2, ...)"}});
  for (const topo::SliceResult& s : r.slices) {
    if (s.count == 0) continue;
    table.add_row({slice_label(r, tr, s.slice), (*ctx.configs)[std::size_t(s.configuration)].name,
                   cost_text(r, s.min), fmt::format("{:.6g}", s.mean), cost_text(r, s.max),
                   joined(placement_names(tr, s.placement))});
  }
  out += table.render();
  if (!r.top.empty()) {
    out += fmt::format("top {} on {}:\n", r.top.size(), slice_label(r, tr, r.top_slice));
    for (std::size_t i = 0; i < r.top.size(); ++i)
      out += fmt::format("  {:>3}. {}  {}  {}\n", i + 1, cost_text(r, r.top[i].cost),
                         (*ctx.configs)[std::size_t(r.top[i].configuration)].name,
                         joined(placement_names(tr, r.top[i].placement)));
  }
  const topo::BestPlacement best = topo::best_overall(r);
  out += fmt::format("best: cost {} at {}, configuration {}: {}\n", cost_text(r, best.cost),
                     slice_label(r, tr, best.slice), (*ctx.configs)[std::size_t(best.configuration)].name,
                     joined(placement_names(tr, best.placement)));
  if (const auto over = topo::best_over_time(r))
    out += fmt::format("best over all timestamps (summed traffic): cost {}, configuration {}: {}\n",
                       cost_text(r, over->cost), (*ctx.configs)[std::size_t(over->configuration)].name,
                       joined(placement_names(tr, over->placement)));
  if (!ctx.qaplib_instance.empty())
    out += fmt::format("QAPLIB {}: objective {}\n", ctx.qaplib_instance, cost_text(r, best.cost));
  const topo::EvalTiming& t = r.timing;
  out += fmt::format(
      "{} placements x {} slices x {} configurations = {} evaluations on {} ({}): sweep {:.3f} ms "
      "(median of {}), {}evaluations/s\n",
      r.placements, r.problem->slices, r.problem->configs, r.evaluations, t.device, t.variant,
      t.sweep.time.median_ms, t.sweep.time.count, rate_text(t.evaluations_per_second));
  if (t.workers.size() > 1) {
    double best = 0;
    for (const auto& w : t.workers) best = std::max(best, w.evaluations_per_second);
    out += fmt::format("{} workers{}: {}evaluations/s in all, parallel efficiency {:.0f}% (against {} x the best "
                       "worker's {}evaluations/s)\n",
                       t.workers.size(), t.ranks > 1 ? fmt::format(" on {} ranks", t.ranks) : "",
                       rate_text(t.evaluations_per_second), t.parallel_efficiency * 100, t.workers.size(),
                       rate_text(best));
    // When each one was ready tells a slow start (a rank's CUDA context, a remote host) from a slow device.
    for (const auto& w : t.workers)
      out += fmt::format("  {}: {} chunks, {}evaluations/s{}{}\n", w.name, w.chunks, rate_text(w.evaluations_per_second),
                         w.ready_s >= 0 ? fmt::format(", ready after {:.2f} s", w.ready_s) : "",
                         w.failed ? " (failed)" : "");
  }
  const bool prefix = r.placements == r.evaluated_end - r.range_begin;
  if (!r.complete && prefix && r.mode == topo::PlacementMode::All)
    out +=
        fmt::format("incomplete: placements {} to {} of {}:{} were evaluated; resume with --range {}:{}\n",
                    r.range_begin, r.evaluated_end, r.range_begin, r.range_end, r.evaluated_end, r.range_end);
  else if (!r.complete)
    out += fmt::format("incomplete: {} of the {} requested placements were evaluated\n", r.placements,
                       r.range_end - r.range_begin);
  if (!r.checkpoint.empty()) out += fmt::format("checkpoint: {}\n", r.checkpoint);
  for (const auto& n : r.notes) out += "note: " + n + "\n";
  return out;
}

ordered_json topo_json(const topo::EvalResult& r, const TopoContext& ctx) {
  const topo::TrafficSeries& tr = *ctx.traffic;
  ordered_json j;
  j["schema"] = "kernelscope.topo.v1";
  j["kernelscope_version"] = KS_VERSION;
  j["best"] = best_json(r, ctx, topo::best_overall(r));
  j["complete"] = r.complete;
  j["traffic"] = {
      {"source", tr.source}, {"unit", tr.unit}, {"nodes", tr.nodes}, {"timestamps", tr.timestamps}};
  ordered_json configs = ordered_json::array();
  for (const auto& c : *ctx.configs)
    configs.push_back({{"name", c.name}, {"metric", c.metric}, {"positions", c.position_names}});
  j["configurations"] = configs;
  j["metric"] = ctx.metric;
  j["placements"] = {{"mode", ctx.placements},
                     {"range", {r.range_begin, r.range_end}},
                     {"evaluated_end", r.evaluated_end},
                     {"count", r.placements}};
  j["evaluations"] = r.evaluations;
  j["exact"] = r.exact;
  j["decimals"] = r.decimals;
  if (!ctx.qaplib_instance.empty())
    j["qaplib"] = {{"instance", ctx.qaplib_instance}, {"objective", j["best"]["cost"]}};
  ordered_json results = ordered_json::array();
  for (const topo::SliceResult& s : r.slices) {
    ordered_json e;
    e["timestamp"] = slice_label(r, tr, s.slice);
    e["configuration"] = (*ctx.configs)[std::size_t(s.configuration)].name;
    e["count"] = s.count;
    if (s.count) {
      e["min"] = cost_json(r, s.min);
      e["max"] = cost_json(r, s.max);
      e["mean"] = s.mean;
      e["argmin"] = s.argmin;
      e["placement"] = placement_names(tr, s.placement);
      if (s.histogram)
        e["histogram"] = {{"lo", s.histogram->lo.value},
                          {"width", s.histogram->width.value},
                          {"counts", s.histogram->counts}};
    }
    results.push_back(e);
  }
  j["results"] = results;
  ordered_json per_t = ordered_json::array();
  for (const auto& b : topo::best_per_timestamp(r)) per_t.push_back(best_json(r, ctx, b));
  j["best_per_timestamp"] = per_t;
  const auto over = topo::best_over_time(r);
  j["best_over_time"] = over ? best_json(r, ctx, *over) : ordered_json(nullptr);
  ordered_json top = ordered_json::array();
  for (const auto& t : r.top)
    top.push_back({{"cost", cost_json(r, t.cost)},
                   {"configuration", (*ctx.configs)[std::size_t(t.configuration)].name},
                   {"index", t.index},
                   {"placement", placement_names(tr, t.placement)}});
  j["top"] = {{"timestamp", slice_label(r, tr, r.top_slice)}, {"placements", top}};
  const topo::EvalTiming& t = r.timing;
  j["timing"] = {{"device", t.device},
                 {"variant", t.variant},
                 {"upload_ms", t.upload_ms},
                 {"download_ms", t.download_ms},
                 {"sweep", pass_json(t.sweep)},
                 {"histogram", pass_json(t.histogram)},
                 {"top", pass_json(t.top)},
                 {"cube", pass_json(t.cube)},
                 {"kernel_ms", t.sweep.time.median_ms},
                 {"evaluations_per_second", t.evaluations_per_second},
                 {"launch", t.launch},
                 {"wall_s", t.wall_s},
                 {"parallel_efficiency", t.parallel_efficiency}};
  ordered_json workers = ordered_json::array();
  for (const auto& w : t.workers)
    workers.push_back({{"name", w.name},
                       {"rank", w.rank},
                       {"chunks", w.chunks},
                       {"evaluations", w.evaluations},
                       {"busy_s", w.busy_s},
                       {"evaluations_per_second", w.evaluations_per_second},
                       {"ready_s", w.ready_s},
                       {"failed", w.failed}});
  j["timing"]["workers"] = workers;
  // Under "timing": like the times it comes from, it is how this run went, not what the result is.
  j["timing"]["roofline"] = ctx.roofline ? to_json(*ctx.roofline) : ordered_json(nullptr);
  // How this result was made (not what it is): compare results without "timing" and "run".
  j["run"] = {{"ranks", t.ranks},
              {"workers", t.workers.size()},
              {"sessions", r.sessions},
              {"stopped", r.stopped},
              {"lost", r.lost},
              {"checkpoint", r.checkpoint}};
  j["notes"] = r.notes;
  return j;
}

std::string topo_csv(const topo::EvalResult& r, const TopoContext& ctx) {
  std::string out = "slice,timestamp,configuration,count,min,max,mean,argmin,placement\n";
  for (const topo::SliceResult& s : r.slices) {
    out += fmt::format("{},{},{},{},", s.slice, csv_field(slice_label(r, *ctx.traffic, s.slice)),
                       csv_field((*ctx.configs)[std::size_t(s.configuration)].name), s.count);
    if (s.count)
      out += fmt::format("{},{},{:.17g},{},{}\n", cost_text(r, s.min), cost_text(r, s.max), s.mean, s.argmin,
                         csv_field(joined(placement_names(*ctx.traffic, s.placement))));
    else
      out += ",,,,\n";
  }
  return out;
}

RooflineFigures sweep_roofline(const topo::EvalResult& r, const topo::Problem& problem, const ComputePeaks& peaks) {
  const CostModel cost = topo::sweep_cost(problem, r.evaluations);
  const double ms = r.timing.evaluations_per_second > 0
                        ? 1000.0 * double(r.evaluations) / r.timing.evaluations_per_second
                        : 0.0;
  return roofline_figures(cost.operations, cost.bytes, ms, peaks);
}

}  // namespace ks::report
