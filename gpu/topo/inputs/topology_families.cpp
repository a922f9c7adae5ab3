// The built-in topology families. Each builds a Network on the n positions (plus switches for leaf-spine);
// path costs and routes then come from configuration_from_network.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

#include "core/error.hpp"
#include "topo/random.hpp"
#include "topo/inputs/spec.hpp"
#include "topo/inputs/topology.hpp"

namespace ks::topo {

namespace {

Network network_of(int positions, int vertices = -1) {
  Network net;
  net.positions = positions;
  net.vertices = vertices < 0 ? positions : vertices;
  return net;
}

void link(Network& net, int a, int b) {
  net.links.push_back({a, b, fmt::format("{}-{}", a, b), 1.0});
}

std::pair<int, int> grid_shape(const Spec& s, int n) {
  const std::string& shape = s.shape();
  const std::size_t x = shape.find('x');
  int w = 0, h = 0;
  if (x != std::string::npos) {
    try {
      w = std::stoi(shape.substr(0, x));
      h = std::stoi(shape.substr(x + 1));
    } catch (...) {
      w = h = 0;
    }
  }
  if (w < 1 || h < 1) s.fail("needs its shape as WxH, e.g. " + s.family() + ":4x2");
  // In 64 bits: shapes such as 100000x100000 overflow an int (found by UBSan on malformed specs).
  const long long positions = (long long)w * h;
  if (positions != n) s.fail(fmt::format("{}x{} has {} positions but the traffic has {} nodes", w, h, positions, n));
  return {w, h};
}

Network grid(const Spec& s, int n, bool wrap) {
  s.allow_only({}, true);
  const auto [w, h] = grid_shape(s, n);
  Network net = network_of(n);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int v = y * w + x;
      if (x + 1 < w) link(net, v, v + 1);
      else if (wrap && w > 2) link(net, v, y * w);
      if (y + 1 < h) link(net, v, v + w);
      else if (wrap && h > 2) link(net, v, x);
    }
  return net;
}

// A connected simple d-regular graph: random pairings of d "stubs" per position, retried until the pairing
// has no loop or double link and the graph is connected (for the d and n used here a few tries suffice).
Network random_regular(const Spec& s, int n) {
  s.allow_only({"d", "seed"});
  const int d = int(s.require_int("d", 1, 64));
  if (d >= n) s.fail(fmt::format("d={} needs more than {} positions", d, d));
  if ((n * d) % 2) s.fail(fmt::format("n x d = {} x {} is odd; a d-regular graph needs it even", n, d));
  SplitMix64 rng(std::uint64_t(s.get_int("seed", 1, 0, (1ll << 62))));
  for (int attempt = 0; attempt < 10000; ++attempt) {
    std::vector<int> stubs;
    for (int v = 0; v < n; ++v)
      for (int k = 0; k < d; ++k) stubs.push_back(v);
    for (int i = int(stubs.size()) - 1; i > 0; --i) std::swap(stubs[std::size_t(i)], stubs[rng.below(std::uint32_t(i + 1))]);
    std::set<std::pair<int, int>> edges;
    bool simple = true;
    for (std::size_t i = 0; i + 1 < stubs.size() && simple; i += 2) {
      const int a = std::min(stubs[i], stubs[i + 1]), b = std::max(stubs[i], stubs[i + 1]);
      simple = a != b && edges.insert({a, b}).second;
    }
    if (!simple) continue;
    // Connected?
    std::vector<std::vector<int>> adj(static_cast<std::size_t>(n));
    for (auto [a, b] : edges) {
      adj[std::size_t(a)].push_back(b);
      adj[std::size_t(b)].push_back(a);
    }
    std::vector<char> seen(std::size_t(n), 0);
    std::vector<int> stack{0};
    seen[0] = 1;
    int reached = 1;
    while (!stack.empty()) {
      const int v = stack.back();
      stack.pop_back();
      for (int u : adj[std::size_t(v)])
        if (!seen[std::size_t(u)]) seen[std::size_t(u)] = 1, ++reached, stack.push_back(u);
    }
    if (reached != n) continue;
    Network net = network_of(n);
    for (auto [a, b] : edges) link(net, a, b);
    return net;
  }
  s.fail("no connected simple graph found in 10000 tries", "try another seed or degree");
}

Network leaf_spine(const Spec& s, int n) {
  s.allow_only({"per_leaf", "spines"});
  const int per_leaf = int(s.require_int("per_leaf", 1, n));
  const int spines = int(s.get_int("spines", 2, 1, 1024));
  if (n % per_leaf) s.fail(fmt::format("{} nodes do not split into leaves of {}", n, per_leaf));
  const int leaves = n / per_leaf;
  Network net = network_of(n, n + leaves + spines);
  for (int v = 0; v < n; ++v) link(net, v, n + v / per_leaf);
  for (int l = 0; l < leaves; ++l)
    for (int sp = 0; sp < spines; ++sp) link(net, n + l, n + leaves + sp);
  return net;
}

Network base_network(const Spec& s, int n) {
  const std::string& f = s.family();
  if (f == "ring") {
    s.allow_only({});
    Network net = network_of(n);
    for (int v = 0; v + 1 < n; ++v) link(net, v, v + 1);
    if (n > 2) link(net, n - 1, 0);
    return net;
  }
  if (f == "mesh") return grid(s, n, false);
  if (f == "torus") return grid(s, n, true);
  if (f == "hypercube") {
    s.allow_only({});
    if (n & (n - 1)) s.fail(fmt::format("needs a power of 2 positions; the traffic has {} nodes", n));
    Network net = network_of(n);
    for (int v = 0; v < n; ++v)
      for (int bit = 1; bit < n; bit <<= 1)
        if (v < (v ^ bit)) link(net, v, v ^ bit);
    return net;
  }
  if (f == "complete") {
    s.allow_only({});
    Network net = network_of(n);
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b) link(net, a, b);
    return net;
  }
  if (f == "star") {
    s.allow_only({"center"});
    const int center = int(s.get_int("center", 0, 0, n - 1));
    Network net = network_of(n);
    for (int v = 0; v < n; ++v)
      if (v != center) link(net, center, v);
    return net;
  }
  if (f == "leafspine") return leaf_spine(s, n);
  if (f == "random") return random_regular(s, n);
  s.fail("unknown topology family '" + f + "'", "known families:\n" + topology_spec_help());
}

}  // namespace

std::string topology_spec_help() {
  return "  ring                           a cycle through the positions in order\n"
         "  mesh:WxH, torus:WxH            2-D grid, without / with wrap-around links (W x H = n)\n"
         "  hypercube                      n = 2^k, links between positions differing in one bit\n"
         "  complete                       every pair linked\n"
         "  star[:center=I]                every position linked to position I (default 0)\n"
         "  leafspine:per_leaf=K[,spines=S]  K positions per leaf switch, every leaf linked to S spines (2)\n"
         "  random:d=D[,seed=S]            random connected D-regular graph\n"
         "  ocs:base=FAMILY[,k=K][,seed=S] optical circuit switch: the base plus one of K random perfect\n"
         "                                 matchings (1): K configurations\n";
}

std::vector<Configuration> configurations_from_spec(const std::string& text, int n, Metric metric) {
  const Spec s(text, "topology");
  if (s.family() != "ocs") return {configuration_from_network(base_network(s, n), metric, text)};
  s.allow_only({"base", "k", "seed"});
  const std::string base_text = s.get_string("base", "");
  if (base_text.empty()) s.fail("needs base=FAMILY, e.g. ocs:base=ring,k=4");
  const Spec base_spec(base_text, "topology");
  if (base_spec.family() == "ocs") s.fail("the base cannot itself be ocs");
  const Network base = base_network(base_spec, n);
  const int k = int(s.get_int("k", 1, 1, 100000));
  SplitMix64 rng(std::uint64_t(s.get_int("seed", 1, 0, (1ll << 62))));
  std::vector<Configuration> out;
  for (int m = 0; m < k; ++m) {
    Network net = base;
    std::vector<int> order(static_cast<std::size_t>(n));
    for (int v = 0; v < n; ++v) order[std::size_t(v)] = v;
    for (int i = n - 1; i > 0; --i) std::swap(order[std::size_t(i)], order[rng.below(std::uint32_t(i + 1))]);
    for (int i = 0; i + 1 < n; i += 2) {
      Link l{order[std::size_t(i)], order[std::size_t(i + 1)], "", 1.0};
      l.name = fmt::format("ocs{}-{}", l.a, l.b);
      net.links.push_back(l);
    }
    out.push_back(configuration_from_network(net, metric, fmt::format("{}+matching{}", base_text, m + 1)));
  }
  return out;
}

}  // namespace ks::topo
