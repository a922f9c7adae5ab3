// Placements on the host: indices, checks, and the cost of one placement from the definition.
#include <fmt/format.h>

#include <cmath>

#include "core/error.hpp"
#include "topo/evaluation.hpp"
#include "topo/swap_delta.hpp"
#include "topo/sweep/sweep_backend.hpp"

namespace ks::topo {

std::vector<int> placement_of_index(std::uint64_t index, int n) {
  if (n > 20) throw Error(ErrorKind::Internal, "placement_of_index: n > 20");
  if (index >= factorial(n)) throw Error(ErrorKind::Internal, "placement_of_index: index beyond n!");
  std::vector<int> unused;
  for (int i = 0; i < n; ++i) unused.push_back(i);
  std::vector<int> out;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t radix = factorial(n - 1 - i);
    const std::uint64_t digit = index / radix;
    index %= radix;
    out.push_back(unused[std::size_t(digit)]);
    unused.erase(unused.begin() + std::ptrdiff_t(digit));
  }
  return out;
}

std::uint64_t index_of_placement(const std::vector<int>& placement) {
  const int n = int(placement.size());
  std::uint64_t index = 0;
  for (int i = 0; i < n; ++i) {
    int smaller_later = 0;
    for (int j = i + 1; j < n; ++j) smaller_later += placement[std::size_t(j)] < placement[std::size_t(i)];
    index = index * std::uint64_t(n - i) + std::uint64_t(smaller_later);
  }
  return index;
}

void check_placement(const std::vector<int>& placement, int n, const std::string& what) {
  if (int(placement.size()) != n)
    throw_usage(fmt::format("{} has {} entries for {} nodes", what, placement.size(), n),
                "a placement lists the node at each position, every node once");
  std::vector<char> seen(std::size_t(n), 0);
  for (int v : placement) {
    if (v < 0 || v >= n) throw_usage(fmt::format("{} names node {}, outside 0 .. {}", what, v, n - 1));
    if (seen[std::size_t(v)]) throw_usage(fmt::format("{} places node {} twice", what, v), "every node exactly once");
    seen[std::size_t(v)] = 1;
  }
}

// Any n: the placement is read as ints (full_cost, the same order as cost_of_placement), not as the sweep's bytes.
Cost placement_cost(const Problem& p, int slice, int configuration, const std::vector<int>& placement) {
  check_placement(placement, p.n, "the placement");
  const std::size_t nn = std::size_t(p.n) * std::size_t(p.n);
  Cost c;
  if (p.exact) {
    c.scaled = full_cost<ExactInt64>(p.traffic_scaled.data() + std::size_t(slice) * nn,
                                     p.cost_scaled.data() + std::size_t(configuration) * nn, placement.data(), p.n);
    c.value = p.cost_value(c.scaled);
  } else {
    c.value = full_cost<RealDouble>(p.traffic_real.data() + std::size_t(slice) * nn,
                                    p.cost_real.data() + std::size_t(configuration) * nn, placement.data(), p.n);
  }
  return c;
}

EvalResult eval_result_of_placements(const Problem& p, int top_slice, bool complete,
                                     const std::vector<ConfigurationPlacement>& rows) {
  EvalResult e;
  e.problem = &p;
  e.mode = PlacementMode::Given;
  e.exact = p.exact;
  e.decimals = p.decimals;
  e.complete = complete;
  e.top_slice = top_slice;
  e.placements = rows.size();
  e.range_end = e.evaluated_end = e.placements;
  e.slices.resize(std::size_t(p.slices) * std::size_t(p.configs));
  for (int s = 0; s < p.slices; ++s)
    for (int c = 0; c < p.configs; ++c) {
      SliceResult& out = e.slices[std::size_t(s) * std::size_t(p.configs) + std::size_t(c)];
      out.slice = s;
      out.configuration = c;
    }
  for (const ConfigurationPlacement& row : rows)
    for (int s = 0; s < p.slices; ++s) {
      SliceResult& out = e.slices[std::size_t(s) * std::size_t(p.configs) + std::size_t(row.configuration)];
      out.count = 1;
      out.min = out.max = (*row.slice_costs)[std::size_t(s)];
      out.mean = out.min.value;
      out.argmin = std::uint64_t(row.configuration);
      out.placement = *row.placement;
    }
  return e;
}

const SliceResult& EvalResult::at(int slice, int configuration) const {
  return slices.at(std::size_t(slice) * std::size_t(problem->configs) + std::size_t(configuration));
}

}  // namespace ks::topo
