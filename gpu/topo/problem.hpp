#pragma once
// A sweep's input in the form the backends take: traffic slices and path-cost matrices of one size n, either as
// exact integers (scaled decimals, see numbers.hpp) or as doubles.
#include <cstdint>
#include <string>
#include <vector>

#include "topo/inputs/topology.hpp"
#include "topo/inputs/traffic.hpp"

namespace ks::topo {

struct Problem {
  int n = 0;
  int timestamps = 0;
  int slices = 0;             // timestamps, plus the summed slice when there are several timestamps
  bool summed_slice = false;  // slice `timestamps` is the sum over all timestamps (cost is linear in traffic)
  int configs = 0;
  bool exact = false;         // costs are integers times 10^-decimals, summed exactly
  int decimals = 0;           // traffic decimals + path-cost decimals
  std::vector<std::int64_t> traffic_scaled, cost_scaled;  // exact: [slice][n][n], [config][n][n]
  std::vector<double> traffic_real, cost_real;            // otherwise
  // exact: the largest |cost| a placement can have (sum of |path cost| x the largest |traffic|), scaled.
  std::uint64_t cost_bound = 0;
  std::string real_reason;    // why the costs are not exact, when they are not

  std::uint64_t pairs() const { return std::uint64_t(slices) * std::uint64_t(configs); }
  double cost_value(std::int64_t scaled) const;  // scaled / 10^decimals
};

// Costs at most this large (scaled) are summed in 64-bit integers; every intermediate of the delta evaluation
// stays below 8x the bound, so this keeps them below 2^63.
inline constexpr std::uint64_t kMaxExactCostBound = std::uint64_t(1) << 59;

// Checks sizes (usage Error naming the configuration whose size differs) and builds the problem.
Problem make_problem(const TrafficSeries& traffic, const std::vector<Configuration>& configs);

}  // namespace ks::topo
