#include "topo/sweep/sweep_cost.hpp"

namespace ks::topo {

CostModel sweep_cost(const Problem& p, std::uint64_t evaluations) {
  const std::uint64_t n2 = std::uint64_t(p.n) * std::uint64_t(p.n);
  CostModel c;
  c.operations = 2 * n2 * evaluations;
  c.bytes = 8 * n2 * (std::uint64_t(p.slices) + std::uint64_t(p.configs));
  return c;
}

}  // namespace ks::topo
