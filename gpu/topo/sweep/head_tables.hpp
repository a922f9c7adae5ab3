#pragma once
// The problem as the walk of a headed sweep sees it (sweep_head.hpp), made once per sweep on the host and shared
// by the CPU backend and the CUDA one (which uploads it), so that both walk the same numbers: per head, the
// traffic between the tail's nodes relabelled 0 .. t-1 (per slice), the head's linear share lin and its constant
// (per slice and configuration); the path costs between the tail positions (per configuration).
#include <cstdint>
#include <vector>

#include "topo/arith.hpp"
#include "topo/problem.hpp"
#include "topo/sweep/sweep_plan.hpp"

namespace ks::topo {

template <class V>
struct HeadTables {
  int t = 0, slices = 0, configs = 0;
  std::uint64_t heads = 0;
  std::vector<V> traffic;   // [head][slice][t][t]
  std::vector<V> cost;      // [config][t][t]
  std::vector<V> lin;       // [head][slice][config][t][t]: lin[i][x], node x at tail position i
  std::vector<V> constant;  // [head][slice][config]

  std::size_t square() const { return std::size_t(t) * std::size_t(t); }
  const V* traffic_of(std::uint64_t head, int slice) const {
    return traffic.data() + (std::size_t(head) * std::size_t(slices) + std::size_t(slice)) * square();
  }
  const V* cost_of(int config) const { return cost.data() + std::size_t(config) * square(); }
  std::size_t pair_of(std::uint64_t head, int slice, int config) const {
    return (std::size_t(head) * std::size_t(slices) + std::size_t(slice)) * std::size_t(configs) + std::size_t(config);
  }
  const V* lin_of(std::uint64_t head, int slice, int config) const {
    return lin.data() + pair_of(head, slice, config) * square();
  }
  V constant_of(std::uint64_t head, int slice, int config) const { return constant[pair_of(head, slice, config)]; }
};

// In the problem's own arithmetic: ExactInt64 (scaled integers) or RealDouble (each product and sum rounded in a
// fixed order: k ascending, then for the constant l ascending).
template <class A>
HeadTables<typename A::Value> make_head_tables(const Problem& p, const SweepPlan& plan);

// The same tables in another value type (exact integers into float or double: every value is a partial sum of a
// cost, below the bound the backend checked, so each converts exactly).
template <class To, class From>
HeadTables<To> converted(const HeadTables<From>& from) {
  HeadTables<To> to;
  to.t = from.t;
  to.slices = from.slices;
  to.configs = from.configs;
  to.heads = from.heads;
  to.traffic.assign(from.traffic.begin(), from.traffic.end());
  to.cost.assign(from.cost.begin(), from.cost.end());
  to.lin.assign(from.lin.begin(), from.lin.end());
  to.constant.assign(from.constant.begin(), from.constant.end());
  return to;
}

}  // namespace ks::topo
