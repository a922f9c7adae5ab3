#include <algorithm>
#include <cmath>

#include "topo/inputs/sndlib.hpp"

namespace ks::topo {

double great_circle_km(const NodeCoordinates& a, const NodeCoordinates& b) {
  constexpr double kPi = 3.14159265358979323846;
  constexpr double kEarthRadiusKm = 6371.0;
  const double to_rad = kPi / 180.0;
  const double dlat = (b.y - a.y) * to_rad, dlon = (b.x - a.x) * to_rad;
  const double h = std::sin(dlat / 2) * std::sin(dlat / 2) +
                   std::cos(a.y * to_rad) * std::cos(b.y * to_rad) * std::sin(dlon / 2) * std::sin(dlon / 2);
  return 2 * kEarthRadiusKm * std::asin(std::min(1.0, std::sqrt(h)));
}

double link_length(const NodeCoordinates& a, const NodeCoordinates& b, bool geographical) {
  return geographical ? std::round(great_circle_km(a, b)) : std::hypot(a.x - b.x, a.y - b.y);
}

void add_demand_matrix(const SndlibNetwork& net, const TrafficSeries& traffic, ExactValues& values) {
  const std::size_t n = traffic.nodes.size();
  std::vector<double> m(n * n, 0.0);
  std::vector<std::optional<Decimal>> exact(n * n, Decimal{0, 0});
  for (const auto& d : net.demands) {
    const std::size_t k =
        std::size_t(node_index(traffic, d.source)) * n + std::size_t(node_index(traffic, d.target));
    m[k] = d.value;
    exact[k] = d.exact;
  }
  for (std::size_t k = 0; k < n * n; ++k) values.add(m[k], exact[k]);
}

TrafficSeries traffic_from_sndlib(const SndlibNetwork& net, const std::string& source) {
  TrafficSeries t;
  t.source = source;
  t.unit = net.unit;
  t.nodes = net.nodes;
  t.coordinates = net.coordinates;
  t.timestamps = {net.time.empty() ? std::filesystem::path(net.file).stem().string() : net.time};
  ExactValues values;
  add_demand_matrix(net, t, values);
  t.values = values.values();
  t.scaled = values.scaled();
  t.decimals = t.scaled ? values.decimals() : 0;
  if (!net.links.empty()) {
    OwnLinks own;
    own.geographical = net.geographical;
    for (const auto& l : net.links) {
      Link link{node_index(t, l.source), node_index(t, l.target), l.id, std::nullopt};
      if (!net.coordinates.empty())
        link.weight = link_length(net.coordinates[std::size_t(link.a)], net.coordinates[std::size_t(link.b)],
                                  net.geographical);
      own.links.push_back(std::move(link));
    }
    t.own_links = std::move(own);
  }
  return t;
}

}  // namespace ks::topo
