#pragma once
// Reports of a topology sweep: the text printed by `kernelscope-cli topo`, its JSON and CSV. No CLI
// dependency, so the GUI's exports can reuse them. Placements are written by node names: entry i is the node
// at position i.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/peaks.hpp"
#include "topo/evaluation.hpp"

namespace ks::report {

// What was swept, for the reports.
struct TopoContext {
  const topo::TrafficSeries* traffic = nullptr;
  const std::vector<topo::Configuration>* configs = nullptr;
  std::string metric;           // "hops", "weighted", "given"
  std::string placements;       // as asked: "all", "sample:1000", "identity", a file
  std::string qaplib_instance;  // with --qaplib: the instance's name
  // The sweep pass on the roofline (topo/sweep/sweep_cost.hpp), when the caller knows the backend's peaks;
  // written as "timing": {"roofline"} in the JSON (null without).
  std::optional<RooflineFigures> roofline;
};

// The sweep pass on the roofline under `peaks` (the CPU pool's, or the GPUs' summed): its cost
// (topo/sweep/sweep_cost.hpp) over the time its evaluations took. TopoContext::roofline of `topo --json` and ks.topo.
RooflineFigures sweep_roofline(const topo::EvalResult& r, const topo::Problem& problem, const ComputePeaks& peaks);

// "ATLAM5 ATLAng ..." (node names in position order).
std::vector<std::string> placement_names(const topo::TrafficSeries& traffic,
                                         const std::vector<int>& placement);
// The label of a slice: the timestamp's, or "sum" for the summed slice.
std::string slice_label(const topo::EvalResult& r, const topo::TrafficSeries& traffic, int slice);
// "a b c": words joined by single spaces (placements by node names).
std::string joined(const std::vector<std::string>& words);
// "1.23 G", "4.56 M", "789 ": a rate with the prefix of its unit, which the caller appends.
std::string rate_text(double per_second);
// A cost as written in reports: exact costs in full ("1234.5"), others with 17 significant digits.
std::string cost_text(const topo::EvalResult& r, const topo::Cost& c);

// One line per (timestamp, configuration) with the minimum and its placement, then the summary.
std::string topo_text(const topo::EvalResult& r, const TopoContext& ctx);
// Everything, with "best": {"cost", "placement", "timestamp", "configuration"} at the top level.
nlohmann::ordered_json topo_json(const topo::EvalResult& r, const TopoContext& ctx);
// slice,timestamp,configuration,count,min,max,mean,argmin,placement (one row per pair; placement names joined
// by spaces).
std::string topo_csv(const topo::EvalResult& r, const TopoContext& ctx);

}  // namespace ks::report
