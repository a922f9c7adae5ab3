#pragma once
// Simulated annealing with pair swaps, one chain per thread on both backends (the same code): a step proposes
// a uniformly random pair r != s, computes its delta in O(n) (swap_delta.hpp), and accepts it when it does
// not raise the cost, or else with probability e^(-delta / temperature) (det_exp: the same bits on host and
// device). The temperature falls geometrically over a cooling cycle of `cycle_steps` steps, from
// `start_temperature` by the factor `cooling` per step; then the chain reheats and goes on from where it is.
#include <cstdint>

#include "core/hd.hpp"
#include "topo/search/chain_state.hpp"
#include "topo/search/search_arith.hpp"
#include "topo/swap_delta.hpp"
#include "topo/search/tabu_step.hpp"

namespace ks::topo {

// A placement stored with a stride (a GPU thread's column in shared memory; stride 1 on the CPU).
struct StridedPlacement {
  std::uint16_t* base = nullptr;
  int stride = 1;
  KS_HD std::uint16_t& operator[](int k) const { return base[k * stride]; }
};

template <class A, class P, class Q>
KS_HD void anneal_start(const SearchMatrices<A>& m, const P& p, const Q& best_p, ChainRegs<A>& r,
                        const StepSettings& s) {
  r.cost = full_cost<A>(m.traffic, m.cost_of, p, s.n);
  r.best = r.cost;
  r.best_iteration = r.iteration;
  r.temperature = s.start_temperature;
  r.clock = 0;
  for (int k = 0; k < s.n; ++k) best_p[k] = p[k];
  r.fresh = false;
}

template <class A, class P, class Q>
KS_HD void anneal_step(const SearchMatrices<A>& m, const P& p, const Q& best_p, ChainRegs<A>& r,
                       const StepSettings& s) {
  using V = typename A::Value;
  const int n = s.n;
  const int i = int(r.rng.below(std::uint32_t(n)));
  int j = int(r.rng.below(std::uint32_t(n - 1)));
  if (j >= i) ++j;
  const V d = swap_delta<A>(m.traffic, m.cost_of, p, n, i, j);
  bool accept = !(d > V(0));
  if (!accept) accept = r.rng.uniform() < det_exp(-div_rn(double(d), r.temperature));
  if (accept) {
    const std::uint16_t t = p[i];
    p[i] = p[j];
    p[j] = t;
    r.cost = A::add(r.cost, d);
  }
  ++r.iteration;
  if (accept && r.cost < r.best) {
    r.best = r.cost;
    r.best_iteration = r.iteration;
    for (int k = 0; k < n; ++k) best_p[k] = p[k];
  }
  if (++r.clock >= s.cycle_steps) {
    r.clock = 0;
    r.temperature = s.start_temperature;
  } else {
    r.temperature = mul_rn(r.temperature, s.cooling);
  }
}

template <class A, class P, class Q>
KS_HD void anneal_steps(const SearchMatrices<A>& m, const P& p, const Q& best_p, ChainRegs<A>& r,
                        const StepSettings& s, int steps) {
  if (r.fresh) anneal_start(m, p, best_p, r, s);
  for (int step = 0; step < steps; ++step) anneal_step(m, p, best_p, r, s);
}

}  // namespace ks::topo
