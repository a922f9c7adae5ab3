#include "topo/sweep/head_tables.hpp"

#include "core/error.hpp"

namespace ks::topo {

template <class A>
HeadTables<typename A::Value> make_head_tables(const Problem& p, const SweepPlan& plan) {
  using V = typename A::Value;
  if (plan.h == 0) throw Error(ErrorKind::Internal, "make_head_tables: the plan has no head");
  const std::vector<V>& traffic = [&]() -> const std::vector<V>& {
    if constexpr (A::exact) return p.traffic_scaled; else return p.traffic_real;
  }();
  const std::vector<V>& paths = [&]() -> const std::vector<V>& {
    if constexpr (A::exact) return p.cost_scaled; else return p.cost_real;
  }();
  const int n = p.n, h = plan.h, t = plan.t;
  const auto T = [&](int slice, int a, int b) { return traffic[(std::size_t(slice) * n + std::size_t(a)) * n + std::size_t(b)]; };
  const auto D = [&](int config, int a, int b) { return paths[(std::size_t(config) * n + std::size_t(a)) * n + std::size_t(b)]; };

  HeadTables<V> out;
  out.t = t;
  out.slices = p.slices;
  out.configs = p.configs;
  out.heads = plan.heads;
  for (int c = 0; c < p.configs; ++c)
    for (int i = 0; i < t; ++i)
      for (int j = 0; j < t; ++j) out.cost.push_back(D(c, h + i, h + j));
  const SweepKeys keys = plan.keys();
  for (std::uint64_t head = 0; head < plan.heads; ++head) {
    int head_nodes[kMaxPlacementNodes];
    const unsigned rest = keys.head_nodes(head, head_nodes);
    int node[kMaxPlacementNodes];  // the original node of each tail label
    for (int x = 0; x < t; ++x) node[x] = nth_member(rest, std::uint64_t(x));
    for (int s = 0; s < p.slices; ++s)
      for (int x = 0; x < t; ++x)
        for (int y = 0; y < t; ++y) out.traffic.push_back(T(s, node[x], node[y]));
    for (int s = 0; s < p.slices; ++s)
      for (int c = 0; c < p.configs; ++c) {
        for (int i = 0; i < t; ++i)
          for (int x = 0; x < t; ++x) {
            V v = V(0);
            for (int k = 0; k < h; ++k)
              v = A::mad(A::mad(v, D(c, k, h + i), T(s, head_nodes[k], node[x])), D(c, h + i, k), T(s, node[x], head_nodes[k]));
            out.lin.push_back(v);
          }
        V v = V(0);
        for (int k = 0; k < h; ++k)
          for (int l = 0; l < h; ++l) v = A::mad(v, D(c, k, l), T(s, head_nodes[k], head_nodes[l]));
        out.constant.push_back(v);
      }
  }
  return out;
}

template HeadTables<std::int64_t> make_head_tables<ExactInt64>(const Problem&, const SweepPlan&);
template HeadTables<double> make_head_tables<RealDouble>(const Problem&, const SweepPlan&);

}  // namespace ks::topo
