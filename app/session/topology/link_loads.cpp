#include "session/topology/link_loads.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>

#include "core/error.hpp"

namespace ks::app {

namespace {

double traffic_between(const topo::TrafficSeries& t, int slice, int src, int dst) {
  if (slice < t.timestamp_count()) return t.at(slice, src, dst);
  double sum = 0;
  for (int s = 0; s < t.timestamp_count(); ++s) sum += t.at(s, src, dst);
  return sum;
}

// Vertices from SNDlib coordinates when every vertex has some, scaled into [0, 1] keeping their aspect
// (longitude and latitude as they are: a map of a country reads fine without a projection); else a circle.
void lay_out(LoadedNetwork& out, const topo::Network* net, int vertices) {
  out.x.assign(std::size_t(vertices), 0.5);
  out.y.assign(std::size_t(vertices), 0.5);
  if (net && int(net->coordinates.size()) == vertices) {
    double x0 = std::numeric_limits<double>::max(), y0 = x0, x1 = -x0, y1 = -x0;
    for (const auto& c : net->coordinates) {
      x0 = std::min(x0, c.x), x1 = std::max(x1, c.x);
      y0 = std::min(y0, c.y), y1 = std::max(y1, c.y);
    }
    const double span = std::max({x1 - x0, y1 - y0, 1e-12});
    for (int v = 0; v < vertices; ++v) {
      const auto& c = net->coordinates[std::size_t(v)];
      out.x[std::size_t(v)] = 0.5 + (c.x - (x0 + x1) / 2) / span;
      // Latitude grows northward, screens grow downward.
      out.y[std::size_t(v)] = 0.5 - (c.y - (y0 + y1) / 2) / span;
    }
    out.from_coordinates = true;
    return;
  }
  const int switches = vertices - out.positions;
  for (int v = 0; v < vertices; ++v) {
    const bool position = v < out.positions;
    const int k = position ? v : v - out.positions;
    const int count = position ? out.positions : switches;
    const double a = 2 * std::numbers::pi * k / std::max(count, 1) - std::numbers::pi / 2;
    const double r = position ? 0.45 : 0.2;
    out.x[std::size_t(v)] = 0.5 + r * std::cos(a);
    out.y[std::size_t(v)] = 0.5 + r * std::sin(a);
  }
}

}  // namespace

std::optional<LoadedNetwork> load_network(const topo::TrafficSeries& traffic, int slice,
                                          const topo::Configuration& config,
                                          const std::vector<int>& placement) {
  const int n = config.positions();
  if (config.next_hop.empty()) return std::nullopt;
  if (int(placement.size()) != n || traffic.node_count() != n)
    throw_usage(fmt::format("a placement of {} nodes does not fit {} ({} positions)", placement.size(),
                            config.name, n));
  if (slice < 0 || slice > traffic.timestamp_count())
    throw_usage(
        fmt::format("there is no timestamp {} (the traffic has {})", slice, traffic.timestamp_count()));

  const topo::Network* net = config.network ? &*config.network : nullptr;
  const int V = net ? net->vertices : n;
  if (config.next_hop.size() != std::size_t(V) * std::size_t(V))
    throw Error(ErrorKind::Internal, fmt::format("{}: the next-hop table has {} entries for {} vertices",
                                                 config.name, config.next_hop.size(), V));
  const bool hops = config.metric == "hops";

  LoadedNetwork out;
  out.configuration = config.name;
  out.positions = n;
  for (int v = 0; v < V; ++v) {
    if (v < n)
      out.labels.push_back(traffic.nodes.at(std::size_t(placement[std::size_t(v)])));
    else if (net && std::size_t(v) < net->vertex_names.size())
      out.labels.push_back(net->vertex_names[std::size_t(v)]);
    else
      out.labels.push_back(fmt::format("s{}", v - n));
  }
  lay_out(out, net, V);

  // One edge per vertex pair; of parallel links the shortest, which is the one the routes take.
  std::map<std::pair<int, int>, std::size_t> edge_of;
  auto add_edge = [&](int a, int b, const std::string& name, double weight) {
    const auto key = std::minmax(a, b);
    const auto it = edge_of.find(key);
    if (it == edge_of.end()) {
      edge_of[key] = out.edges.size();
      out.edges.push_back({key.first, key.second, name, weight, 0});
    } else if (weight < out.edges[it->second].weight) {
      out.edges[it->second].weight = weight;
      out.edges[it->second].name = name;
    }
  };
  if (net) {
    for (const topo::Link& l : net->links)
      if (l.a != l.b) add_edge(l.a, l.b, l.name, hops ? 1.0 : l.weight.value_or(1.0));
  } else {
    // An explicit next-hop table: its links are the hops it takes.
    for (int u = 0; u < V; ++u)
      for (int v = 0; v < V; ++v) {
        const int x = config.next_hop[std::size_t(u) * std::size_t(V) + std::size_t(v)];
        if (x >= 0 && x != u) add_edge(u, x, fmt::format("{}-{}", std::min(u, x), std::max(u, x)), 1.0);
      }
    out.note = "links: the hops of the next-hop table";
  }

  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (i == j) continue;
      const double amount =
          traffic_between(traffic, slice, placement[std::size_t(i)], placement[std::size_t(j)]);
      if (amount == 0) continue;
      int u = i;
      for (int steps = 0; u != j; ++steps) {
        const int x = config.next_hop[std::size_t(u) * std::size_t(V) + std::size_t(j)];
        const auto it = x >= 0 ? edge_of.find(std::minmax(u, x)) : edge_of.end();
        if (it == edge_of.end() || steps >= V)
          throw Error(ErrorKind::Internal,
                      fmt::format("{}: the route from position {} toward {} breaks at vertex {}", config.name,
                                  i, j, u));
        out.edges[it->second].load += amount;
        u = x;
      }
    }
  for (const auto& e : out.edges) {
    out.max_load = std::max(out.max_load, e.load);
    out.weighted_total += e.load * e.weight;
  }
  return out;
}

}  // namespace ks::app
