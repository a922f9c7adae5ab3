#pragma once
// Robust tabu search (E. Taillard, "Robust taboo search for the quadratic assignment problem", Parallel
// Computing 17, 1991; with the cubed random tenures of his 2006 code), one chain, written once for a team of
// threads: the CPU backend runs it with a team of one (SoloTeam), the CUDA backend with a block. Pairs are dealt
// to the team's threads in turn; the move is the minimum of a total order (rank, delta, pair number), so the
// choice does not depend on how the pairs were dealt, and every thread draws the same random numbers from its
// copy of the chain's generator. The CPU and CUDA chains therefore make the same moves.
//
// A step: every pair r < s is ranked
//   0  aspired: its delta makes a new best of the chain, or one of its two assignments (node p(s) at r, p(r) at
//      s) was not made for `aspiration` iterations (Taillard's aspiration by default, a diversification)
//   1  allowed: one of the two assignments is not tabu
//   2  tabu (chosen only when every move is tabu)
// and the first pair of the lowest (rank, delta) is made; the assignments it undoes (node p(r) at r, p(s) at s)
// become tabu for floor(u^3 x tenure_span) iterations each, u uniform in [0, 1). Then the delta matrix is
// brought up to date (swap_delta.hpp: O(1) per pair disjoint from the move, O(n) for the 2n - 3 others).
#include <cstdint>

#include "core/hd.hpp"
#include "topo/search/chain_state.hpp"
#include "topo/search/search_arith.hpp"
#include "topo/search/swap_delta.hpp"

namespace ks::topo {

// The problem as a step reads it: n x n matrices in the policy's type, and the pair table.
template <class A>
struct SearchMatrices {
  const typename A::Value* traffic = nullptr;
  const typename A::Value* cost_of = nullptr;
  const std::uint32_t* pairs = nullptr;  // pair_count(n) packed pairs
};

// A candidate move; `rank` 3 is "none yet".
template <class V>
struct MoveChoice {
  int rank = 3;
  V delta{};
  int pair = 0x7FFFFFFF;

  KS_HD bool before(const MoveChoice& o) const {
    if (rank != o.rank) return rank < o.rank;
    if (delta != o.delta) return delta < o.delta;
    return pair < o.pair;
  }
};

// One tabu chain's arrays (in host memory, device memory or shared memory).
template <class A>
struct TabuChain {
  std::uint16_t* p = nullptr;        // node at each position
  std::uint16_t* best_p = nullptr;   // the chain's best placement
  std::int32_t* tabu = nullptr;      // n x n: [position][node] = the clock until which the assignment is tabu
  typename A::Value* delta = nullptr;  // pair_count(n)
  MoveVectors<A> vec{};              // 4 x n scratch
};

// (Re)starts the chain from the placement in `c.p`: cost, delta matrix, a tabu list that forbids nothing, and the
// chain's best. Ends with the team synchronised.
template <class A, class Team>
KS_HD void tabu_start(const Team& team, const SearchMatrices<A>& m, const TabuChain<A>& c, ChainRegs<A>& r,
                      const StepSettings& s) {
  const int n = s.n;
  r.cost = full_cost<A>(m.traffic, m.cost_of, c.p, n);  // every thread: no broadcast needed
  r.best = r.cost;
  r.best_iteration = r.iteration;
  for (int k = team.rank(); k < s.pairs; k += team.size())
    c.delta[k] = swap_delta<A>(m.traffic, m.cost_of, c.p, n, pair_first(m.pairs[k]), pair_second(m.pairs[k]));
  // Distinct times in the recent past, as Taillard's -(n i + j): nothing is tabu, nothing aspired yet.
  for (int k = team.rank(); k < n * n; k += team.size()) c.tabu[k] = r.clock - 1 - k;
  for (int k = team.rank(); k < n; k += team.size()) c.best_p[k] = c.p[k];
  r.fresh = false;
  team.sync();
}

// Brings the delta matrix up to date after the move (u, v), the placement already swapped: O(n) for the move
// vectors, then O(1) per pair disjoint from {u, v} and O(n) for the others. Ends with the team synchronised.
template <class A, class Team>
KS_HD void update_delta_matrix(const Team& team, const SearchMatrices<A>& m, const TabuChain<A>& c,
                               const StepSettings& s, int u, int v) {
  const int n = s.n;
  for (int k = team.rank(); k < n; k += team.size()) c.vec.fill(m.traffic, m.cost_of, c.p, n, u, v, k);
  team.sync();
  for (int k = team.rank(); k < s.pairs; k += team.size()) {
    const int i = pair_first(m.pairs[k]), j = pair_second(m.pairs[k]);
    c.delta[k] = (i == u || i == v || j == u || j == v) ? swap_delta<A>(m.traffic, m.cost_of, c.p, n, i, j)
                                                        : c.vec.updated(c.delta[k], i, j);
  }
  team.sync();
}

template <class A, class Team>
KS_HD void tabu_step(const Team& team, const SearchMatrices<A>& m, const TabuChain<A>& c, ChainRegs<A>& r,
                     const StepSettings& s) {
  using V = typename A::Value;
  const int n = s.n;
  if (r.clock >= kClockLimit) {
    for (int k = team.rank(); k < n * n; k += team.size()) {
      const std::int32_t t = c.tabu[k];
      c.tabu[k] = t < 0 ? -kClockShift : t - kClockShift;
    }
    r.clock -= kClockShift;
    team.sync();
  }

  const std::int32_t now = r.clock;
  const std::int32_t long_ago = now - s.aspiration;
  MoveChoice<V> choice;
  for (int k = team.rank(); k < s.pairs; k += team.size()) {
    const int i = pair_first(m.pairs[k]), j = pair_second(m.pairs[k]);
    const V d = c.delta[k];
    const std::int32_t ti = c.tabu[i * n + c.p[j]], tj = c.tabu[j * n + c.p[i]];
    const bool aspired = ti < long_ago || tj < long_ago || A::add(r.cost, d) < r.best;
    MoveChoice<V> here;
    here.rank = aspired ? 0 : (ti < now || tj < now) ? 1 : 2;
    here.delta = d;
    here.pair = k;
    if (here.before(choice)) choice = here;
  }
  choice = team.reduce_min(choice);
  const int u = pair_first(m.pairs[choice.pair]), v = pair_second(m.pairs[choice.pair]);
  const double u1 = r.rng.uniform(), u2 = r.rng.uniform();
  const std::int32_t tenure_u = std::int32_t(mul_rn(mul_rn(mul_rn(u1, u1), u1), s.tenure_span));
  const std::int32_t tenure_v = std::int32_t(mul_rn(mul_rn(mul_rn(u2, u2), u2), s.tenure_span));
  team.sync();  // every thread has read p and the tabu list
  if (team.rank() == 0) {
    const std::uint16_t xu = c.p[u], xv = c.p[v];
    c.p[u] = xv;
    c.p[v] = xu;
    c.tabu[u * n + xu] = now + tenure_u;  // xu may not come back to u for a while
    c.tabu[v * n + xv] = now + tenure_v;
  }
  r.cost = A::add(r.cost, choice.delta);
  ++r.clock;
  ++r.iteration;
  team.sync();

  if (r.cost < r.best) {
    r.best = r.cost;
    r.best_iteration = r.iteration;
    for (int k = team.rank(); k < n; k += team.size()) c.best_p[k] = c.p[k];
  }
  update_delta_matrix(team, m, c, s, u, v);
}

// `steps` steps of one chain (a fresh chain starts first).
template <class A, class Team>
KS_HD void tabu_steps(const Team& team, const SearchMatrices<A>& m, const TabuChain<A>& c, ChainRegs<A>& r,
                      const StepSettings& s, int steps) {
  if (r.fresh) tabu_start(team, m, c, r, s);
  for (int step = 0; step < steps; ++step) tabu_step(team, m, c, r, s);
}

}  // namespace ks::topo
