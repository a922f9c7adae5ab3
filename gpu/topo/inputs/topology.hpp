#pragma once
// Topology configurations: for each, the path cost between every two positions (hops, or the weighted length of
// the shortest route), and the network behind it when there is one (for drawing and link loads).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "topo/inputs/traffic.hpp"

namespace ks::topo {

enum class Metric { Hops, Weighted };
const char* to_string(Metric m) noexcept;
Metric metric_from_string(const std::string& s);  // "hops" | "weighted"; usage Error otherwise

// Vertices 0 .. positions-1 are where nodes can be placed; further vertices are switches (leaf-spine).
struct Network {
  int positions = 0;
  int vertices = 0;
  std::vector<std::string> vertex_names;     // empty, or one per vertex
  std::vector<Link> links;                   // undirected
  std::vector<NodeCoordinates> coordinates;  // empty, or one per vertex
  bool geographical = false;
};

struct Configuration {
  std::string name;                         // "ring", "ocs-3", "abilene.txt links", "chr12a A"
  std::string metric;                       // "hops", "km", "weighted", "given" (path-cost files, QAPLIB)
  std::vector<std::string> position_names;  // empty: positions are numbered
  std::vector<double> cost;                 // n x n, row-major: cost of the route from position i to j
  // The same costs as integers times 10^-decimals, when they are exact decimals (see numbers.hpp).
  std::optional<std::vector<std::int64_t>> scaled;
  int decimals = 0;
  std::optional<Network> network;
  // Routes, when known: next_hop[u * V + v] is the first vertex after u on the route from u toward v (u itself
  // when u == v), over the network's V vertices (the positions when there is no network).
  std::vector<int> next_hop;
  std::vector<std::string> notes;  // said once to the user, e.g. how positions were matched to nodes

  int positions() const;
};

// Path costs over a network: breadth-first hop counts or Dijkstra over link weights (every link needs one).
// Routes between positions may pass through any vertex. An Io Error names unreachable pairs (the first few and
// how many in all), with `what` saying which topology it is.
Configuration configuration_from_network(const Network& net, Metric metric, const std::string& name);

// Checks and follows explicit next-hop tables: next[i][j] is the first hop from position i toward j. Every chain
// must reach its target without visiting a position twice; an Io Error names the first pair that loops or
// leaves the positions, with the chain it took. Path cost = hops.
// `names` (optional, one per position) label the positions in messages.
Configuration configuration_from_next_hops(const std::vector<int>& next, int n, const std::string& name,
                                          const std::vector<std::string>& names = {});

// --topology PATH|SPEC for a given traffic: a file (SNDlib native or XML: its links; `nexthop` or `pathcost`
// files, see topology_files.cpp) or a spec of a built-in family (topology_families.cpp). Configurations are
// aligned to the traffic: same number of positions (usage Error otherwise), and where the positions are named
// like the traffic's nodes, reordered so that position i is the traffic's node i (the identity placement puts
// every node at its own place).
std::vector<Configuration> load_topology(const std::string& path_or_spec, const TrafficSeries& traffic,
                                         Metric metric);
// The traffic's own links (SNDlib network files); usage Error when it has none.
Configuration own_links_configuration(const TrafficSeries& traffic, Metric metric);

// Families: "ring", "mesh:WxH", "torus:WxH", "hypercube", "complete", "star[:center=I]",
// "leafspine:per_leaf=K[,spines=S]", "random:d=D[,seed=S]", "ocs:base=FAMILY[,k=K][,seed=S]".
std::vector<Configuration> configurations_from_spec(const std::string& spec, int n, Metric metric);
// One line per family with its syntax, for --help.
std::string topology_spec_help();

// Reorders a configuration whose positions are named like the traffic's nodes; returns a note when the names
// differ and the file's order is kept instead, else empty. Usage Error when the sizes differ.
std::string align_to_traffic(Configuration& c, const TrafficSeries& traffic, const std::string& what);

}  // namespace ks::topo
