#include "topo/bnb/node_batch.hpp"

#include <fmt/format.h>

#include <chrono>

#include "topo/bnb/gl_branch.hpp"

namespace ks::topo {

void CpuNodeEvaluator::load(const std::int64_t* traffic, const std::int64_t* costs, int n) {
  const std::size_t nn = std::size_t(n) * std::size_t(n);
  n_ = n;
  traffic_.assign(traffic, traffic + nn);
  costs_.assign(costs, costs + nn);
  scratch_.assign(std::size_t(gl_node_scratch_size(n)), 0);
}

void CpuNodeEvaluator::evaluate(const NodeBatch& b, NodeBatchResult& out) {
  const auto started = std::chrono::steady_clock::now();
  const std::size_t m = std::size_t(n_ - b.depth);
  out.bounds.resize(b.nodes);
  out.lines.resize(b.nodes);
  out.lowers.resize(b.nodes * m);
  for (std::size_t k = 0; k < b.nodes; ++k)
    out.bounds[k] =
        gl_evaluate_node(n_, traffic_.data(), costs_.data(), b.orders + k * std::size_t(n_),
                         b.locs + k * std::size_t(b.depth), b.depth, b.floors[k], b.best,
                         b.reduced_cost_pruning, scratch_.data(), out.lines[k], out.lowers.data() + k * m);
  ++time_.batches;
  time_.nodes += b.nodes;
  time_.evaluate_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

std::string describe_evaluators(const std::vector<NodeEvaluator*>& evaluators) {
  std::string out;
  for (std::size_t k = 0; k < evaluators.size();) {
    const std::string name = evaluators[k]->device();
    std::size_t run = 1;
    while (k + run < evaluators.size() && evaluators[k + run]->device() == name) ++run;
    if (!out.empty()) out += ", ";
    out += run == 1 ? name : fmt::format("{} with {} feeding threads", name, run);
    k += run;
  }
  return out;
}

}  // namespace ks::topo
