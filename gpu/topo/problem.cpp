#include "topo/problem.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/error.hpp"
#include "topo/inputs/numbers.hpp"

namespace ks::topo {

namespace {
__extension__ typedef unsigned __int128 uint128;  // GCC and Clang: exact products of two 64-bit values
}  // namespace

double Problem::cost_value(std::int64_t scaled) const {
  return decimals == 0 ? double(scaled) : double(scaled) / std::pow(10.0, decimals);
}

Problem make_problem(const TrafficSeries& traffic, const std::vector<Configuration>& configs) {
  validate_traffic(traffic);
  if (configs.empty()) throw_usage("no topology configuration", "give --topology (e.g. ring, torus:4x2)");
  Problem p;
  p.n = traffic.node_count();
  p.timestamps = traffic.timestamp_count();
  p.summed_slice = p.timestamps > 1;
  p.slices = p.timestamps + (p.summed_slice ? 1 : 0);
  p.configs = int(configs.size());
  const std::size_t nn = std::size_t(p.n) * std::size_t(p.n);
  for (const auto& c : configs)
    if (c.cost.size() != nn)
      throw_usage(fmt::format("configuration '{}' has {} positions but the traffic has {} nodes", c.name,
                              c.positions(), p.n),
                  "every configuration needs one position per node");

  // Exact when everything is a decimal and the largest possible cost fits.
  p.exact = bool(traffic.scaled);
  if (!p.exact) p.real_reason = "some traffic values are not decimals that fit in 64 bits";
  int cost_decimals = 0;
  for (const auto& c : configs) {
    if (!c.scaled) {
      if (p.exact) p.real_reason = "the path costs of '" + c.name + "' are not exact decimals";
      p.exact = false;
    } else {
      cost_decimals = std::max(cost_decimals, c.decimals);
    }
  }
  std::vector<std::int64_t> costs;
  if (p.exact) {
    for (const auto& c : configs)
      for (std::int64_t v : *c.scaled) {
        std::int64_t s = 0;
        if (__builtin_mul_overflow(v, power_of_ten(cost_decimals - c.decimals), &s)) p.exact = false;
        costs.push_back(s);
      }
    if (!p.exact) p.real_reason = "path costs too large to scale to common decimals";
  }
  std::vector<std::int64_t> slices;
  if (p.exact) {
    slices = *traffic.scaled;
    if (p.summed_slice) {
      std::vector<std::int64_t> sum(nn, 0);
      for (int t = 0; t < p.timestamps; ++t)
        for (std::size_t k = 0; k < nn; ++k)
          if (__builtin_add_overflow(sum[k], slices[std::size_t(t) * nn + k], &sum[k])) p.exact = false;
      slices.insert(slices.end(), sum.begin(), sum.end());
    }
    if (!p.exact) p.real_reason = "the traffic summed over time does not fit in 64 bits";
  }
  if (p.exact) {
    // |cost| <= (sum of |D|) x (largest |T|), in 128 bits to see an overflow.
    std::int64_t max_t = 0;
    for (std::int64_t v : slices) max_t = std::max(max_t, v < 0 ? -v : v);
    uint128 bound = 0;
    for (int c = 0; c < p.configs; ++c) {
      uint128 sum_d = 0;
      for (std::size_t k = 0; k < nn; ++k) {
        const std::int64_t d = costs[std::size_t(c) * nn + k];
        sum_d += uint128(d < 0 ? -d : d);
      }
      bound = std::max(bound, sum_d * uint128(max_t));
    }
    if (bound > kMaxExactCostBound) {
      p.exact = false;
      p.real_reason = fmt::format("costs can reach {:.3g}, too large to sum exactly in 64 bits", double(bound));
    } else {
      p.cost_bound = std::uint64_t(bound);
    }
  }
  if (p.exact) {
    p.decimals = traffic.decimals + cost_decimals;
    p.traffic_scaled = std::move(slices);
    p.cost_scaled = std::move(costs);
    return p;
  }
  p.decimals = 0;
  p.traffic_real = traffic.values;
  if (p.summed_slice) {
    std::vector<double> sum(nn, 0.0);
    for (int t = 0; t < p.timestamps; ++t)
      for (std::size_t k = 0; k < nn; ++k) sum[k] += traffic.values[std::size_t(t) * nn + k];
    p.traffic_real.insert(p.traffic_real.end(), sum.begin(), sum.end());
  }
  for (const auto& c : configs) p.cost_real.insert(p.cost_real.end(), c.cost.begin(), c.cost.end());
  return p;
}

}  // namespace ks::topo
