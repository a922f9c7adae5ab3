#pragma once
// Reports of a proof by branch and bound (`kernelscope-cli topo --placements bnb`): the text ("proved
// optimal"), the JSON with the `proof` object and each configuration's gap curve, and an SVG of the curve (the
// incumbent and the bound over time). No CLI dependency, so the GUI's exports reuse them.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "report/topo_report.hpp"
#include "report/topo_search_report.hpp"
#include "topo/bnb/bnb.hpp"

namespace ks::report {

// (incumbent - bound) / |incumbent| x 100: what the best found may lose to the optimum; 0 once proved.
double proof_gap_percent(const topo::Cost& incumbent, const topo::Cost& bound);

// One line per configuration (best cost, proved or the gap, root and best bound, nodes, seconds, placement),
// the best and its cost per timestamp, "proved optimal" (or what is left), the reference, the rate.
std::string bnb_text(const topo::BnbResult& r, const TopoContext& ctx, const std::optional<SearchReference>& ref);
// schema kernelscope.topo.bnb/1: best, proof {optimal, nodes, root_bound, best_bound, seconds}, configurations
// (each with its proof and gap curve), reference, timing.
nlohmann::ordered_json bnb_json(const topo::BnbResult& r, const TopoContext& ctx,
                                const std::optional<SearchReference>& ref);
// The best configuration's incumbent and bound over time as a self-contained SVG.
std::string bnb_chart_svg(const topo::BnbResult& r, const TopoContext& ctx);

}  // namespace ks::report
