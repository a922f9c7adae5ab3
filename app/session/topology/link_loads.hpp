#pragma once
// The load on each link of a configuration's network when one timestamp's traffic flows along its routes with
// the nodes placed as given, and where to draw each vertex. What the Topology panel draws; no GL, no ImGui.
//
// With the hop metric, the loads sum to the placement's cost (every byte is counted once per link it
// crosses); with the weighted metric, the loads times the link lengths do.
#include <optional>
#include <string>
#include <vector>

#include "topo/inputs/topology.hpp"
#include "topo/inputs/traffic.hpp"

namespace ks::app {

struct LoadedNetwork {
  struct Edge {
    int a = 0, b = 0;  // vertices
    std::string name;
    double weight = 1;  // what one unit of load on it costs: 1 with hops, the link's length otherwise
    double load = 0;    // traffic crossing it, both directions together
  };
  std::string configuration;
  int positions = 0;
  std::vector<std::string>
      labels;                // per vertex: the node placed there (positions), the switch's name otherwise
  std::vector<double> x, y;  // per vertex, in [0, 1] (y grows downward)
  bool from_coordinates = false;  // SNDlib coordinates; else positions on a circle, switches inside it
  std::vector<Edge> edges;
  double max_load = 0;
  double weighted_total = 0;  // sum of load x weight: the placement's cost
  std::string note;           // how the links were found, when not from the network itself
};

// Traffic of `slice` (a timestamp, or == traffic.timestamp_count() for the sum over all timestamps) between
// the nodes placed as `placement` (node at each position), routed along `config.next_hop`. Nullopt when the
// configuration has no routes (a path-cost matrix, QAPLIB's A): there is nothing to draw then.
std::optional<LoadedNetwork> load_network(const topo::TrafficSeries& traffic, int slice,
                                          const topo::Configuration& config,
                                          const std::vector<int>& placement);

}  // namespace ks::app
