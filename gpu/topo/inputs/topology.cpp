#include "topo/inputs/topology.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <set>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "topo/inputs/numbers.hpp"

namespace ks::topo {

namespace {
constexpr EnumName<Metric> kMetricNames[] = {{Metric::Hops, "hops"}, {Metric::Weighted, "weighted"}};
}

const char* to_string(Metric m) noexcept {
  return name_of(kMetricNames, m);
}

Metric metric_from_string(const std::string& s) {
  return value_named(kMetricNames, s, "metric", "use " + names_listed(kMetricNames, "--metric "));
}

int Configuration::positions() const { return int(std::lround(std::sqrt(double(cost.size())))); }

namespace {

std::string vertex_label(const Network& net, int v) {
  return v < int(net.vertex_names.size()) ? net.vertex_names[std::size_t(v)] : std::to_string(v);
}

// "A -> B, C -> D, ... and 12 more pairs"
std::string list_pairs(const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string s;
  const std::size_t shown = std::min<std::size_t>(pairs.size(), 5);
  for (std::size_t i = 0; i < shown; ++i) s += (i ? ", " : "") + pairs[i].first + " -> " + pairs[i].second;
  if (pairs.size() > shown) s += fmt::format(" and {} more pairs", pairs.size() - shown);
  return s;
}

void fill_exact(Configuration& c) {
  ExactValues v;
  for (double x : c.cost) v.add(x, x == std::floor(x) && std::fabs(x) < 1e15 ? std::optional<Decimal>(Decimal{std::int64_t(x), 0}) : std::nullopt);
  c.scaled = v.scaled();
  c.decimals = 0;
}

}  // namespace

Configuration configuration_from_network(const Network& net, Metric metric, const std::string& name) {
  const int V = net.vertices, P = net.positions;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> dist(std::size_t(V) * std::size_t(V), kInf);
  auto at = [&](int u, int v) -> double& { return dist[std::size_t(u) * std::size_t(V) + std::size_t(v)]; };
  for (int v = 0; v < V; ++v) at(v, v) = 0;
  for (const Link& l : net.links) {
    double w = 1;
    if (metric == Metric::Weighted) {
      if (!l.weight)
        throw_usage("the links of " + name + " have no lengths", "use --metric hops, or a topology with link lengths");
      w = *l.weight;
      if (!(w >= 0) || !std::isfinite(w)) throw_io(fmt::format("{}: link {} has the length {}", name, l.name, w));
    }
    if (l.a == l.b) continue;
    at(l.a, l.b) = std::min(at(l.a, l.b), w);
    at(l.b, l.a) = std::min(at(l.b, l.a), w);
  }
  // Floyd-Warshall: networks here have at most a few hundred vertices.
  for (int k = 0; k < V; ++k)
    for (int i = 0; i < V; ++i) {
      const double ik = at(i, k);
      if (ik == kInf) continue;
      for (int j = 0; j < V; ++j) at(i, j) = std::min(at(i, j), ik + at(k, j));
    }
  std::vector<std::pair<std::string, std::string>> unreachable;
  for (int i = 0; i < P; ++i)
    for (int j = 0; j < P; ++j)
      if (at(i, j) == kInf) unreachable.emplace_back(vertex_label(net, i), vertex_label(net, j));
  if (!unreachable.empty())
    throw_io(fmt::format("{} is disconnected: {} of its position pairs have no route: {}", name, unreachable.size(),
                         list_pairs(unreachable)),
             "add links so that every position can reach every other, or choose another topology");

  Configuration c;
  c.name = name;
  c.metric = metric == Metric::Hops ? "hops" : (net.geographical ? "km" : "weighted");
  if (!net.vertex_names.empty())
    c.position_names.assign(net.vertex_names.begin(), net.vertex_names.begin() + P);
  c.cost.resize(std::size_t(P) * std::size_t(P));
  for (int i = 0; i < P; ++i)
    for (int j = 0; j < P; ++j) c.cost[std::size_t(i) * std::size_t(P) + std::size_t(j)] = at(i, j);
  fill_exact(c);
  // First hops of shortest routes; among equal routes the neighbour with the lowest index, so routes are stable.
  std::vector<std::vector<std::pair<int, double>>> adjacent(static_cast<std::size_t>(V));
  for (const Link& l : net.links) {
    if (l.a == l.b) continue;
    const double w = metric == Metric::Weighted ? *l.weight : 1.0;
    adjacent[std::size_t(l.a)].push_back({l.b, w});
    adjacent[std::size_t(l.b)].push_back({l.a, w});
  }
  for (auto& a : adjacent) std::sort(a.begin(), a.end());
  c.next_hop.assign(std::size_t(V) * std::size_t(V), -1);
  for (int u = 0; u < V; ++u)
    for (int v = 0; v < V; ++v) {
      if (u == v) {
        c.next_hop[std::size_t(u) * std::size_t(V) + std::size_t(v)] = u;
        continue;
      }
      if (at(u, v) == kInf) continue;
      for (const auto& [x, w] : adjacent[std::size_t(u)])
        if (std::fabs(w + at(x, v) - at(u, v)) <= 1e-9 * std::max(1.0, at(u, v))) {
          c.next_hop[std::size_t(u) * std::size_t(V) + std::size_t(v)] = x;
          break;
        }
    }
  c.network = net;
  return c;
}

Configuration configuration_from_next_hops(const std::vector<int>& next, int n, const std::string& name,
                                          const std::vector<std::string>& names) {
  auto label = [&](int v) {
    return v >= 0 && std::size_t(v) < names.size() ? names[std::size_t(v)] : std::to_string(v);
  };
  Configuration c;
  c.name = name;
  c.metric = "hops";
  c.cost.assign(std::size_t(n) * std::size_t(n), 0.0);
  c.next_hop = next;
  auto hop = [&](int u, int v) { return next[std::size_t(u) * std::size_t(n) + std::size_t(v)]; };
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (i == j) continue;
      std::vector<int> chain{i};
      std::vector<char> seen(std::size_t(n), 0);
      seen[std::size_t(i)] = 1;
      int cur = i;
      while (cur != j) {
        const int nx = hop(cur, j);
        auto path = [&] {
          std::string s;
          for (int v : chain) s += label(v) + " -> ";
          return s + label(nx);
        };
        if (nx < 0 || nx >= n)
          throw_io(fmt::format("{}: the route from {} toward {} leaves the positions 0 .. {}: {}", name, label(i), label(j),
                               n - 1, path()),
                   "every next hop must be a position");
        if (nx == cur)
          throw_io(fmt::format("{}: the route from {} toward {} stops at {} (its next hop is itself): {}", name, label(i),
                               label(j), label(cur), path()),
                   "only next[j][j] may point to j itself");
        if (seen[std::size_t(nx)])
          throw_io(fmt::format("{}: the route from {} toward {} loops: {}", name, label(i), label(j), path()),
                   "every chain of next hops must reach its target without visiting a position twice");
        seen[std::size_t(nx)] = 1;
        chain.push_back(nx);
        cur = nx;
      }
      c.cost[std::size_t(i) * std::size_t(n) + std::size_t(j)] = double(chain.size() - 1);
    }
  fill_exact(c);
  return c;
}

Configuration own_links_configuration(const TrafficSeries& traffic, Metric metric) {
  if (!traffic.own_links)
    throw_usage(traffic.source + " has no links of its own", "give a topology with --topology (e.g. ring, torus:4x2)");
  Network net;
  net.positions = net.vertices = traffic.node_count();
  net.vertex_names = traffic.nodes;
  net.links = traffic.own_links->links;
  net.coordinates = traffic.coordinates;
  net.geographical = traffic.own_links->geographical;
  std::string name = traffic.source;
  if (const auto cut = name.find(" ("); cut != std::string::npos) name.resize(cut);
  return configuration_from_network(net, metric, std::filesystem::path(name).filename().string() + " links");
}

std::string align_to_traffic(Configuration& c, const TrafficSeries& traffic, const std::string& what) {
  const int n = traffic.node_count(), p = c.positions();
  if (p != n)
    throw_usage(fmt::format("{} has {} positions but the traffic has {} nodes", what, p, n),
                "choose a topology with one position per node (or traffic with as many nodes)");
  if (c.position_names.empty() || c.position_names == traffic.nodes) return {};
  std::vector<int> from(std::size_t(n), -1);  // from[i]: the configuration's position of traffic node i
  for (int i = 0; i < n; ++i) {
    const auto it = std::find(c.position_names.begin(), c.position_names.end(), traffic.nodes[std::size_t(i)]);
    if (it == c.position_names.end())
      return fmt::format("note: the positions of {} are not named like the traffic's nodes ({} is missing); "
                         "position i is taken as the traffic's node i",
                         what, traffic.nodes[std::size_t(i)]);
    from[std::size_t(i)] = int(it - c.position_names.begin());
  }
  auto permute = [&](const auto& m) {
    auto out = m;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        out[std::size_t(i) * std::size_t(n) + std::size_t(j)] =
            m[std::size_t(from[std::size_t(i)]) * std::size_t(n) + std::size_t(from[std::size_t(j)])];
    return out;
  };
  c.cost = permute(c.cost);
  if (c.scaled) c.scaled = permute(*c.scaled);
  c.position_names = traffic.nodes;
  // Vertices: positions follow the traffic's order, switches keep theirs.
  const int V = c.network ? c.network->vertices : n;
  std::vector<int> new_of(static_cast<std::size_t>(V));
  for (int v = 0; v < V; ++v) new_of[std::size_t(v)] = v;
  for (int i = 0; i < n; ++i) new_of[std::size_t(from[std::size_t(i)])] = i;
  if (!c.next_hop.empty()) {
    std::vector<int> hops(c.next_hop.size());
    for (int u = 0; u < V; ++u)
      for (int v = 0; v < V; ++v) {
        const int h = c.next_hop[std::size_t(u) * std::size_t(V) + std::size_t(v)];
        hops[std::size_t(new_of[std::size_t(u)]) * std::size_t(V) + std::size_t(new_of[std::size_t(v)])] =
            h < 0 ? h : new_of[std::size_t(h)];
      }
    c.next_hop = std::move(hops);
  }
  if (c.network) {
    Network& net = *c.network;
    for (Link& l : net.links) {
      l.a = new_of[std::size_t(l.a)];
      l.b = new_of[std::size_t(l.b)];
    }
    auto reorder = [&](auto& v) {
      if (v.empty()) return;
      auto out = v;
      for (int u = 0; u < V; ++u) out[std::size_t(new_of[std::size_t(u)])] = v[std::size_t(u)];
      v = std::move(out);
    };
    reorder(net.vertex_names);
    reorder(net.coordinates);
  }
  return {};
}

}  // namespace ks::topo
