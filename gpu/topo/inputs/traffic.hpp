#pragma once
// Traffic between the nodes of a distributed application: an n x n matrix per timestamp (bytes, Mbit/s, ...),
// with the nodes' names kept from the source so that every result can name them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ks::topo {

struct NodeCoordinates {
  double x = 0, y = 0;  // longitude/latitude for geographical SNDlib files, else plain coordinates
};

// An undirected link between two vertices of a network, with its length for the weighted metric.
struct Link {
  int a = 0, b = 0;
  std::string name;
  std::optional<double> weight;  // km for SNDlib (from the coordinates), absent when the source gives none
};

// The links a traffic file brings with it (SNDlib network files): the configuration used when no topology is
// given. Vertices are the traffic's nodes, in the same order.
struct OwnLinks {
  std::vector<Link> links;
  bool geographical = false;  // coordinates are longitude/latitude
};

struct TrafficSeries {
  std::string source;                   // "abilene.txt (SNDlib native)", "gravity:n=8,t=4,seed=1"
  std::string unit;                     // "MBITPERSEC", "bytes", or empty when the source does not say
  std::vector<std::string> nodes;       // unique names, in the source's order
  std::vector<std::string> timestamps;  // labels, in time order
  std::vector<double> values;           // [timestamp][src][dst], as the source gives them
  // The same values as integers times 10^-decimals, when every value is such a decimal (see numbers.hpp).
  std::optional<std::vector<std::int64_t>> scaled;
  int decimals = 0;
  std::vector<NodeCoordinates> coordinates;  // empty, or one per node
  std::optional<OwnLinks> own_links;

  int node_count() const { return int(nodes.size()); }
  int timestamp_count() const { return int(timestamps.size()); }
  double at(int t, int src, int dst) const {
    return values[(std::size_t(t) * nodes.size() + std::size_t(src)) * nodes.size() + std::size_t(dst)];
  }
};

// Checks what every evaluation relies on: at least 2 nodes with unique non-empty names, at least one
// timestamp, values for every cell, finite and non-negative, scaled values consistent. Io Error naming the
// source and the first offending cell otherwise.
void validate_traffic(const TrafficSeries& traffic);

// Index of the node called `name`, or -1.
int node_index(const TrafficSeries& traffic, const std::string& name);

}  // namespace ks::topo
