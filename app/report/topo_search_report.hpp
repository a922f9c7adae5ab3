#pragma once
// Reports of a placement search (`kernelscope-cli topo --placements search`): the text, the JSON with the
// convergence curves, an SVG chart of the curve, and the reference the gap is measured against. No CLI
// dependency, so the GUI's exports reuse them. Placements are written by node names (entry i: the node at
// position i).
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "report/topo_report.hpp"
#include "topo/search/search.hpp"

namespace ks::report {

// The cost the search is compared with: given (--reference) or the best known of a QAPLIB instance (.sln).
struct SearchReference {
  double cost = 0;
  std::string source;  // "--reference", "nug30.sln (best known)"
};

// --reference TEXT (a number: usage Error otherwise) or, without it, the .sln beside a QAPLIB .dat when there
// is one (Io Error for a .sln of another size or a broken one). nullopt when neither.
std::optional<SearchReference> search_reference(const std::string& reference_text,
                                                const std::string& qaplib_dat, int n);

// "0.00% above the best known", "1.23% below --reference", "equal to --reference" (cost 0 has no ratio).
std::string gap_text(double cost, const SearchReference& ref);
// {"cost", "source", "gap_percent" (null when the reference is 0), "text"}: the JSON's "reference".
nlohmann::ordered_json reference_json(double cost, const SearchReference& ref);
// (cost - reference) / |reference| x 100; nullopt when the reference is 0.
std::optional<double> gap_percent(double cost, const SearchReference& ref);

// One line per configuration (best cost, time to best, iterations, restarts, placement), the best and its
// cost on each timestamp, the gap to the reference, the rates.
std::string search_text(const topo::SearchResult& r, const TopoContext& ctx,
                        const std::optional<SearchReference>& ref);
// schema kernelscope.topo.search/1: best, configurations (with costs per timestamp and the convergence
// curve), reference and gap, parameters, timing.
nlohmann::ordered_json search_json(const topo::SearchResult& r, const TopoContext& ctx,
                                   const std::optional<SearchReference>& ref);
// The best configuration's convergence curve (best cost over time) as a self-contained SVG, with the
// reference as a dashed line.
std::string search_chart_svg(const topo::SearchResult& r, const TopoContext& ctx,
                             const std::optional<SearchReference>& ref);

}  // namespace ks::report
