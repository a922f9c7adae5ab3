// The bounds of many nodes at once on the CPU threads (the interface the CUDA batch implements on the GPU),
// and the branching order.
#include <algorithm>
#include <numeric>

#include "topo/bnb/bnb.hpp"
#include "topo/bnb/gl_bound.hpp"

namespace ks::topo {

std::vector<int> branching_order(const std::int64_t* traffic, int n) {
  std::vector<std::int64_t> total(std::size_t(n), 0);
  for (int f = 0; f < n; ++f)
    for (int g = 0; g < n; ++g)
      if (f != g) total[std::size_t(f)] += traffic[f * n + g] + traffic[g * n + f];
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return total[std::size_t(a)] > total[std::size_t(b)]; });
  return order;
}

std::vector<std::int64_t> gl_bounds(const std::int64_t* traffic, const std::int64_t* costs, int n,
                                    const std::vector<int>& order, const std::vector<int>& locs, int depth,
                                    ThreadPool& pool) {
  const std::size_t count = depth == 0 ? std::max<std::size_t>(1, order.size() / std::size_t(n))
                                       : locs.size() / std::size_t(depth);
  const bool per_node = order.size() != std::size_t(n);
  std::vector<std::int64_t> out(count);
  pool.parallel_for(0, (long long)count, [&](long long begin, long long end) {
    std::vector<std::int64_t> scratch(static_cast<std::size_t>(gl_full_scratch_size(n)));
    for (long long k = begin; k < end; ++k)
      out[std::size_t(k)] = gl_bound(n, traffic, costs, order.data() + (per_node ? std::size_t(k) * std::size_t(n) : 0),
                                     locs.data() + std::size_t(k) * std::size_t(depth), depth, scratch.data(), nullptr);
  });
  return out;
}

}  // namespace ks::topo
