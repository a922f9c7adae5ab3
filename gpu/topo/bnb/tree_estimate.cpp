#include "topo/bnb/tree_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "topo/bnb/bnb.hpp"
#include "topo/bnb/gl_branch.hpp"
#include "topo/bnb/proof_tree.hpp"

namespace ks::topo {

namespace {

// A node of a probe: its facilities' order (the first `depth` placed), their locations, its bound, the branch
// its reduced costs chose and the children's lower bounds along it.
struct ProbeNode {
  std::vector<int> order, locs;
  int depth = 0;
  std::int64_t bound = 0;
  int line = kNoBranch;
  std::vector<std::int64_t> lowers;
};

class Prober {
 public:
  Prober(const std::int64_t* traffic, const std::int64_t* costs, int n, std::int64_t best, bool pruning)
      : t_(traffic), d_(costs), n_(n), best_(best), pruning_(pruning),
        scratch_(static_cast<std::size_t>(gl_node_scratch_size(n))), order_(branching_order(traffic, n)) {}

  // The node that places the first `depth` facilities of the branching order at prefix[0, depth).
  ProbeNode node_at(const int* prefix, int depth) {
    std::vector<int> locs(std::size_t(n_), -1);
    std::copy_n(prefix, depth, locs.begin());
    return node(order_, std::move(locs), depth, 0);
  }

  // The probe's estimate of the nodes the dive explores below `start` (not counting it).
  double probe(ProbeNode at, std::mt19937_64& rng) {
    double weight = 1, nodes = 0;
    std::vector<ProbeNode> survivors;
    while (at.bound < best_ && at.line != kNoBranch) {
      const int m = n_ - at.depth;
      std::vector<int> free_loc;
      for (int l = 0; l < n_; ++l)
        if (std::find(at.locs.begin(), at.locs.begin() + at.depth, l) == at.locs.begin() + at.depth)
          free_loc.push_back(l);
      int counted = 0;
      survivors.clear();
      for (int k = 0; k < m; ++k) {
        const std::int64_t lower = at.lowers[std::size_t(k)];
        if (pruning_ && lower >= best_) continue;  // the dive stops at the first such child (they are sorted)
        ++counted;
        if (m == 2) continue;  // a leaf: its cost, not a subtree
        int r = 0, c = 0;
        gl_branch_child(at.line, m, k, r, c);
        std::vector<int> order = at.order, locs = at.locs;
        std::swap(order[std::size_t(at.depth)], order[std::size_t(at.depth + r)]);
        locs[std::size_t(at.depth)] = free_loc[std::size_t(c)];
        ProbeNode child = node(std::move(order), std::move(locs), at.depth + 1, pruning_ ? lower : 0);
        if (child.bound < best_) survivors.push_back(std::move(child));
      }
      nodes += weight * counted;
      if (survivors.empty()) break;
      weight *= double(survivors.size());
      at = std::move(survivors[std::uniform_int_distribution<std::size_t>(0, survivors.size() - 1)(rng)]);
    }
    return nodes;
  }

 private:
  ProbeNode node(std::vector<int> order, std::vector<int> locs, int depth, std::int64_t floor) {
    ProbeNode p;
    p.order = std::move(order);
    p.locs = std::move(locs);
    p.depth = depth;
    p.lowers.assign(std::size_t(n_), 0);
    p.bound = gl_evaluate_node(n_, t_, d_, p.order.data(), p.locs.data(), depth, floor, best_, pruning_,
                               scratch_.data(), p.line, p.lowers.data());
    return p;
  }

  const std::int64_t *t_, *d_;
  int n_;
  std::int64_t best_;
  bool pruning_;
  std::vector<std::int64_t> scratch_;
  std::vector<int> order_;
};

}  // namespace

TreeEstimate estimate_tree(const std::int64_t* traffic, const std::int64_t* costs, int n, std::int64_t best,
                           bool reduced_cost_pruning, int probes, ThreadPool& pool) {
  // The frontier the proof cuts its work into (every node of its depth: the proof counts them all), and the
  // subtrees it explores below it: those whose bound is below the incumbent.
  ProofTree tree(traffic, costs, n, reduced_cost_pruning);
  tree.build_frontier(pool);
  const int depth = tree.frontier_depth();
  const std::uint64_t subtrees = tree.subtrees();
  std::vector<std::uint64_t> opened;
  for (std::uint64_t i = 0; i < subtrees; ++i)
    if (tree.subtree_bound(std::size_t(i)) < best) opened.push_back(i);
  // A probe: a subtree drawn at random among the open ones, and the dive below it; the estimate is the
  // frontier plus the open subtrees' count times the probes' mean.
  std::vector<double> nodes(static_cast<std::size_t>(std::max(probes, 0)), 0.0);
  if (!opened.empty() && n - depth > 1)
    pool.parallel_for(0, probes, [&](long long begin, long long end) {
      Prober prober(traffic, costs, n, best, reduced_cost_pruning);
      for (long long i = begin; i < end; ++i) {
        std::mt19937_64 rng(std::uint64_t(i) + 1);
        const std::uint64_t pick = std::uniform_int_distribution<std::uint64_t>(0, opened.size() - 1)(rng);
        const ProbeNode start = prober.node_at(tree.subtree_prefix(std::size_t(opened[pick])), depth);
        nodes[std::size_t(i)] = double(opened.size()) * prober.probe(start, rng);
      }
    });
  TreeEstimate e;
  e.probes = probes;
  e.nodes = double(subtrees);
  if (probes < 1) return e;
  double sum = 0;
  for (double v : nodes) sum += v;
  const double below = sum / probes;
  e.nodes += below;
  if (probes > 1) {
    double squares = 0;
    for (double v : nodes) squares += (v - below) * (v - below);
    e.standard_error = std::sqrt(squares / (probes - 1) / probes);
  }
  return e;
}

}  // namespace ks::topo
