#include "topo/inputs/traffic.hpp"

#include <cmath>
#include <set>

#include "core/error.hpp"

namespace ks::topo {

void validate_traffic(const TrafficSeries& tr) {
  const std::string where = tr.source.empty() ? "the traffic" : tr.source;
  if (tr.timestamps.empty())
    throw_io(where + ": no traffic at all (no timestamps)", "check that the file or folder holds demand data");
  if (tr.nodes.size() < 2)
    throw_io(where + ": " + std::to_string(tr.nodes.size()) + " node(s); placements need at least 2");
  std::set<std::string> seen;
  for (const auto& name : tr.nodes) {
    if (name.empty()) throw_io(where + ": a node has an empty name");
    if (!seen.insert(name).second) throw_io(where + ": node '" + name + "' appears twice");
  }
  const std::size_t n = tr.nodes.size();
  if (tr.values.size() != tr.timestamps.size() * n * n)
    throw Error(ErrorKind::Internal, where + ": traffic holds " + std::to_string(tr.values.size()) +
                                         " values for " + std::to_string(tr.timestamps.size()) + " x " +
                                         std::to_string(n) + " x " + std::to_string(n));
  if (tr.scaled && tr.scaled->size() != tr.values.size())
    throw Error(ErrorKind::Internal, where + ": scaled traffic does not match the values");
  if (!tr.coordinates.empty() && tr.coordinates.size() != n)
    throw Error(ErrorKind::Internal, where + ": coordinates do not match the nodes");
  for (std::size_t t = 0; t < tr.timestamps.size(); ++t)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        const double v = tr.values[(t * n + i) * n + j];
        if (std::isfinite(v) && v >= 0) continue;
        throw_io(where + ": traffic from " + tr.nodes[i] + " to " + tr.nodes[j] + " at " + tr.timestamps[t] +
                     " is " + std::to_string(v),
                 "traffic must be a finite amount, zero or more");
      }
}

int node_index(const TrafficSeries& traffic, const std::string& name) {
  for (std::size_t i = 0; i < traffic.nodes.size(); ++i)
    if (traffic.nodes[i] == name) return int(i);
  return -1;
}

}  // namespace ks::topo
