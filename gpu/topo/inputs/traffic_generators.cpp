#include "topo/inputs/traffic_generators.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>

#include "core/error.hpp"
#include "topo/random.hpp"
#include "topo/inputs/spec.hpp"
#include "topo/inputs/text_lines.hpp"

namespace ks::topo {

namespace {

constexpr double kPi = 3.14159265358979323846;

std::vector<std::string> node_names(const Spec& s, int n, const std::string& prefix) {
  std::vector<std::string> names;
  const std::string given = s.get_string("names", "");
  if (!given.empty()) {
    for (const auto& f : split_fields(given, '/')) names.push_back(f);
    if (int(names.size()) != n) s.fail(fmt::format("names= lists {} names for n={}", names.size(), n));
    const std::set<std::string> unique(names.begin(), names.end());
    if (unique.size() != names.size() || unique.count("")) s.fail("names= must be distinct and non-empty");
    return names;
  }
  for (int i = 0; i < n; ++i) names.push_back(prefix + std::to_string(i));
  return names;
}

// Pareto-like masses in [1, 10): a few big nodes, many small ones, from rational operations only (no libm), so the
// same seed gives the same traffic everywhere.
std::vector<double> masses(SplitMix64& rng, int n) {
  std::vector<double> m(static_cast<std::size_t>(n));
  for (auto& x : m) x = 1.0 / (1.0 - 0.9 * rng.uniform());
  return m;
}

}  // namespace

std::string traffic_spec_help() {
  return "  uniform:n=N       independent uniform amounts in [0, bytes)\n"
         "  gravity:n=N       mass(i) * mass(j), heavy-tailed masses, +-20% noise\n"
         "  hotspot:n=N[,hot=K]  light uniform traffic plus K hot nodes (1) exchanging `bytes` with all\n"
         "  allreduce:n=N     ring all-reduce: 2(n-1)/n * bytes from each node to the next\n"
         "  alltoall:n=N      bytes/n from each node to every other\n"
         "  ps:n=N[,servers=S]  parameter server: bytes/S from each worker to each of S servers and back\n"
         "  common keys: t=T timestamps over one day (1), seed=S (1), bytes=B (1000000), daily=A daily\n"
         "  variation 0..1 (0.5 when T > 1), names=a/b/c node names\n";
}

TrafficSeries generate_traffic(const std::string& text) {
  const Spec s(text, "traffic generator");
  const std::string& f = s.family();
  std::vector<std::string> keys{"n", "t", "seed", "bytes", "daily", "names"};
  if (f == "hotspot") keys.push_back("hot");
  if (f == "ps") keys.push_back("servers");
  static const std::set<std::string> families{"uniform", "gravity", "hotspot", "allreduce", "alltoall", "ps"};
  if (!families.count(f)) s.fail("unknown generator '" + f + "'", "known generators:\n" + traffic_spec_help());
  s.allow_only(keys);
  const int n = int(s.require_int("n", 2, 4096));
  const int T = int(s.get_int("t", 1, 1, 100000));
  if (double(T) * n * n > 2e8) s.fail(fmt::format("{} timestamps x {} x {} values is more than this tool holds", T, n, n));
  const std::uint64_t seed = std::uint64_t(s.get_int("seed", 1, 0, (1ll << 62)));
  const double bytes = s.get_double("bytes", 1e6, 1, 1e15);
  const double daily = s.get_double("daily", T > 1 ? 0.5 : 0.0, 0, 1);
  const int hot = f == "hotspot" ? int(s.get_int("hot", 1, 1, n)) : 0;
  const int servers = f == "ps" ? int(s.get_int("servers", 1, 1, n - 1)) : 0;

  TrafficSeries tr;
  tr.source = text;
  tr.unit = "bytes";
  if (f == "ps") {
    tr.nodes = node_names(s, n, "w");
    if (!s.has("names"))
      for (int i = 0; i < n; ++i) tr.nodes[std::size_t(i)] = i < servers ? "ps" + std::to_string(i) : "w" + std::to_string(i - servers);
  } else {
    tr.nodes = node_names(s, n, "n");
  }
  for (int t = 0; t < T; ++t) {
    const int minute = int(std::floor(1440.0 * t / T));
    tr.timestamps.push_back(fmt::format("{:02}:{:02}", minute / 60, minute % 60));
  }
  SplitMix64 rng(seed);
  const std::vector<double> mass = masses(rng, n);
  double mass_sum = 0;
  for (double m : mass) mass_sum += m;
  std::vector<int> hot_nodes;
  for (int i = 0; i < hot; ++i) hot_nodes.push_back(int(rng.below(std::uint32_t(n))));

  tr.values.resize(std::size_t(T) * std::size_t(n) * std::size_t(n));
  std::vector<std::int64_t> scaled(tr.values.size());
  for (int t = 0; t < T; ++t) {
    const double day = 1.0 - daily * std::cos(2 * kPi * t / T);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double v = 0;
        if (i != j) {
          if (f == "uniform") {
            v = bytes * rng.uniform();
          } else if (f == "gravity") {
            v = bytes * n * mass[std::size_t(i)] * mass[std::size_t(j)] / (mass_sum * mass_sum) * (0.8 + 0.4 * rng.uniform());
          } else if (f == "hotspot") {
            v = 0.05 * bytes * rng.uniform();
            for (int h : hot_nodes)
              if (i == h || j == h) v += bytes * (0.5 + 0.5 * rng.uniform());
          } else if (f == "allreduce") {
            if (j == (i + 1) % n) v = 2.0 * (n - 1) / n * bytes;
          } else if (f == "alltoall") {
            v = bytes / n;
          } else {  // ps
            const bool i_server = i < servers, j_server = j < servers;
            if (i_server != j_server) v = bytes / servers;
          }
        }
        const std::int64_t whole = std::int64_t(std::llround(v * day));
        const std::size_t k = (std::size_t(t) * std::size_t(n) + std::size_t(i)) * std::size_t(n) + std::size_t(j);
        scaled[k] = whole;
        tr.values[k] = double(whole);
      }
  }
  tr.scaled = std::move(scaled);
  tr.decimals = 0;
  validate_traffic(tr);
  return tr;
}

}  // namespace ks::topo
