#pragma once
// Robust tabu search (E. Taillard, "Robust taboo search for the quadratic assignment problem", Parallel
// Computing 17, 1991; with the cubed random tenures of his 2006 code), one chain, written once for a team of
// threads: the CPU backend runs it with a team of one (SoloTeam), the CUDA backend with a block. Pairs are
// dealt to the team's threads in turn; the move is the minimum of a total order (rank, delta, pair number),
// so the choice does not depend on how the pairs were dealt, and every thread draws the same random numbers
// from its copy of the chain's generator. The CPU and CUDA chains therefore make the same moves.
//
// A step: every pair r < s is ranked
//   0  aspired: its delta makes a new best of the chain, or one of its two assignments (node p(s) at r, p(r)
//   at
//      s) was not made for `aspiration` iterations (Taillard's aspiration by default, a diversification)
//   1  allowed: one of the two assignments is not tabu
//   2  tabu (chosen only when every move is tabu)
// and the first pair of the lowest (rank, delta) is made; the assignments it undoes (node p(r) at r, p(s) at
// s) become tabu for floor(u^3 x tenure_span) iterations each, u uniform in [0, 1) (cubed tenures), or both
// for the chain's band tenure, uniform in [band_low, band_high] and drawn anew every band_period iterations
// (band tenures, Taillard 1991). Then the delta matrix is brought up to date (swap_delta.hpp: O(1) per pair
// disjoint from the move, O(n) for the 2n - 3 others), and each thread ranks the pairs it has just updated
// for the next step in the same pass, so a step reads the delta matrix once. Where the path costs and the
// traffic are both symmetric (StepSettings::symmetric, most QAPLIB instances), the updates take the
// symmetric forms, which read half as much and give the same values in integer arithmetic.
//
// Layout. A chain keeps the traffic and its tabu list permuted by its placement, indexed by position:
//   P[i][j]    = T[p(i)][p(j)]          (the traffic between the nodes at positions i and j)
//   tabu[i][j] = the clock until which node p(j) may not be placed at position i
// A move swaps two rows and two columns of P and two columns of the tabu list (O(n)); in exchange every read
// of a step is by position, without the indirection through p: on a GPU, lanes that take consecutive
// positions read consecutive words. The tabu list's rows are tabu_pitch(n) = n rounded up to odd words apart,
// and the rows of P and of the path costs D an odd number of words apart too (matrix_pitch: for 8- and 16-bit
// entries also a whole number of words), so that a column's entries fall in distinct shared-memory banks. The
// values are the same as through p, and so are the operations (swap_delta_pitched with the identity
// placement), so the results are too.
#include <cstdint>
#include <type_traits>

#include "core/hd.hpp"
#include "topo/search/chain_state.hpp"
#include "topo/search/search_arith.hpp"
#include "topo/swap_delta.hpp"

namespace ks::topo {

// The row pitch of the tabu list (32-bit entries): n rounded up to odd.
KS_HD int tabu_pitch(int n) {
  return n | 1;
}

// The row pitch, in entries, of the path costs and the permuted traffic kept as M: n rounded up to odd for
// 32- and 64-bit entries; for narrower ones, the fewest whole words that hold n entries, rounded up to odd.
template <class M>
KS_HD int matrix_pitch(int n) {
  if constexpr (sizeof(M) >= 4) {
    return n | 1;
  } else {
    constexpr int per_word = 4 / int(sizeof(M));
    return (((n + per_word - 1) / per_word) | 1) * per_word;
  }
}

// Pair (r, s), r < s, of n positions: its number in the delta matrix (swap_delta.hpp's order).
KS_HD int pair_index(int r, int s, int n) {
  return r * (2 * n - r - 1) / 2 + (s - r - 1);
}

// The problem as a step reads it. Tabu search: `cost_of` with rows `pitch` (matrix_pitch) apart, `traffic`
// n x n (read only when a chain starts), the pair table. Annealing: both n x n (pitch n), no pair table.
template <class A>
struct SearchMatrices {
  const matrix_t<A>* traffic = nullptr;
  const matrix_t<A>* cost_of = nullptr;
  const std::uint32_t* pairs = nullptr;  // pair_count(n) packed pairs
  int pitch = 0;
};

// A candidate move; `rank` 3 is "none yet". `pair` is the pair (r, s) packed as the pair table packs it
// (pack_pair), which orders pairs as their number in the delta matrix does, and names the move without a
// lookup.
template <class V>
struct MoveChoice {
  int rank = 3;
  V delta{};
  std::uint32_t pair = 0xFFFFFFFFu;

  KS_HD bool before(const MoveChoice& o) const {
    if (rank != o.rank) return rank < o.rank;
    if (delta != o.delta) return delta < o.delta;
    return pair < o.pair;
  }
};

// One tabu chain's arrays (in host memory, device memory or shared memory).
template <class A>
struct TabuChain {
  std::uint16_t* p = nullptr;          // node at each position
  std::uint16_t* best_p = nullptr;     // the chain's best placement
  matrix_t<A>* P = nullptr;            // n x matrix_pitch: the traffic by position
  std::int32_t* tabu = nullptr;        // n x tabu_pitch: by position (see the top)
  typename A::Value* delta = nullptr;  // pair_count(n)
  MoveVectors<A> vec{};                // 4n values of scratch
};

// (Re)starts the chain from the placement in `c.p`: permuted traffic, cost, delta matrix, a tabu list that
// forbids nothing, and the chain's best. Ends with the team synchronised.
template <class A, class Team>
KS_HD void tabu_start(const Team& team, const SearchMatrices<A>& m, const TabuChain<A>& c, ChainRegs<A>& r,
                      const StepSettings& s) {
  using V = typename A::Value;
  const int n = s.n, pitch = m.pitch, tp = tabu_pitch(n);
  for (int k = team.rank(); k < n * n; k += team.size()) {
    const int i = k / n, j = k % n;
    c.P[i * pitch + j] = m.traffic[c.p[i] * n + c.p[j]];
    // Distinct times in the recent past, as Taillard's -(n i + x) for node x at position i: nothing is tabu,
    // nothing aspired yet.
    c.tabu[i * tp + j] = r.clock - 1 - (i * n + c.p[j]);
  }
  // Zero padding: the 8-bit sums read whole words of P's rows (swap_delta_symmetric_words).
  for (int k = team.rank(); k < n * (pitch - n); k += team.size())
    c.P[(k / (pitch - n)) * pitch + n + k % (pitch - n)] = 0;
  for (int k = team.rank(); k < n; k += team.size()) c.best_p[k] = c.p[k];
  team.sync();
  // The cost from the definition, in full_cost's order; every thread, so no broadcast is needed.
  V cost = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) cost = A::mad(cost, m.cost_of[i * pitch + j], c.P[i * pitch + j]);
  r.cost = cost;
  r.best = r.cost;
  r.best_iteration = r.iteration;
  for (int k = team.rank(); k < s.pairs; k += team.size()) {
    const int i = pair_first(m.pairs[k]), j = pair_second(m.pairs[k]);
    c.delta[k] = s.symmetric
                     ? swap_delta_symmetric_pitched<A>(c.P, m.cost_of, IdentityPlacement{}, pitch, n, i, j)
                     : swap_delta_pitched<A>(c.P, m.cost_of, IdentityPlacement{}, pitch, n, i, j);
  }
  r.fresh = false;
  team.sync();
}

// Makes the move (u, v), u < v: swaps the positions in the placement, in the rows and columns of P and in the
// columns of the tabu list, marks the two assignments the move undoes tabu, and fills the move vectors of
// update_delta_matrix. One pass: the thread that swaps the entries of index k computes the vectors at k from
// the values it moved (the four corners of P, and the vectors at u and v, are the first thread's). Ends with
// the team synchronised.
template <class A, class Team>
KS_HD void tabu_move(const Team& team, const SearchMatrices<A>& m, const TabuChain<A>& c, int n, int u, int v,
                     std::int32_t tabu_u, std::int32_t tabu_v) {
  const int pitch = m.pitch, tp = tabu_pitch(n);
  const auto* D = m.cost_of;
  auto* P = c.P;
  for (int k = team.rank(); k < n; k += team.size()) {
    c.vec.a(k) = A::sub(D[u * pitch + k], D[v * pitch + k]);
    c.vec.c(k) = A::sub(D[k * pitch + u], D[k * pitch + v]);
    swap_values(c.tabu[k * tp + u], c.tabu[k * tp + v]);
    if (k == u) c.tabu[u * tp + v] = tabu_u;  // the node that left u (now at v) may not come back for a while
    if (k == v) c.tabu[v * tp + u] = tabu_v;
    if (k == u || k == v) continue;
    swap_values(P[u * pitch + k], P[v * pitch + k]);
    swap_values(P[k * pitch + u], P[k * pitch + v]);
    c.vec.b(k) = A::sub(P[v * pitch + k], P[u * pitch + k]);
    c.vec.e(k) = A::sub(P[k * pitch + v], P[k * pitch + u]);
  }
  if (team.rank() == 0) {
    swap_values(c.p[u], c.p[v]);
    swap_values(P[u * pitch + u], P[v * pitch + v]);
    swap_values(P[u * pitch + v], P[v * pitch + u]);
    c.vec.b(u) = A::sub(P[v * pitch + u], P[u * pitch + u]);
    c.vec.e(u) = A::sub(P[u * pitch + v], P[u * pitch + u]);
    c.vec.b(v) = A::sub(P[v * pitch + v], P[u * pitch + v]);
    c.vec.e(v) = A::sub(P[v * pitch + v], P[v * pitch + u]);
  }
  team.sync();
}

// Ranks pairs for a chain's next step (see the top) and keeps the best it was offered: what each thread of a
// team hands to reduce_min.
template <class A>
struct MoveRanker {
  using V = typename A::Value;
  const std::int32_t* tabu;
  int pitch;  // the tabu list's
  std::int32_t now, long_ago;
  V cost, best;
  MoveChoice<V> choice{};

  KS_HD MoveRanker(const TabuChain<A>& c, const ChainRegs<A>& r, const StepSettings& s)
      : tabu(c.tabu),
        pitch(tabu_pitch(s.n)),
        now(r.clock),
        long_ago(r.clock - s.aspiration),
        cost(r.cost),
        best(r.best) {}

  // The rank of pair (i, j), i < j, whose swap changes the cost by d.
  KS_HD int rank_of(int i, int j, V d) const {
    // Node p(j) at position i, and node p(i) at position j: the older of the two assignments decides both
    // tests (one of them not made for `aspiration` iterations; one of them not tabu).
    const std::int32_t ti = tabu[i * pitch + j], tj = tabu[j * pitch + i];
    const std::int32_t older = ti < tj ? ti : tj;
    return older < long_ago || A::add(cost, d) < best ? 0 : older < now ? 1 : 2;
  }

  // Pair (i, j), i < j, whose swap changes the cost by d, offered in any order.
  KS_HD void operator()(int i, int j, V d) {
    MoveChoice<V> here;
    here.rank = rank_of(i, j, d);
    here.delta = d;
    here.pair = pack_pair(i, j);
    if (here.before(choice)) choice = here;
  }

  // The same for a pair after every pair offered so far in the delta matrix's order (the O(1) updates offer
  // theirs so): a tie in rank and delta keeps the earlier pair, as before() would, without comparing pairs.
  // 32-bit values only: the 64-bit kernels spilled with it (ptxas, sm_90), and take operator()'s way.
  KS_HD void in_order(int i, int j, V d) {
    if constexpr (sizeof(V) != 4) return (*this)(i, j, d);
    const int rank = rank_of(i, j, d);
    if (rank < choice.rank || (rank == choice.rank && d < choice.delta)) {
      choice.rank = rank;
      choice.delta = d;
      choice.pair = pack_pair(i, j);
    }
  }
};

// Ranks nothing: update_delta_matrix on its own.
struct NoRanking {
  template <class V>
  KS_HD void operator()(int, int, V) const {}
  template <class V>
  KS_HD void in_order(int, int, V) const {}
};

// This thread's share of the ranking of every pair (a chain's first step after a start or a launch).
template <class A, class Team>
KS_HD MoveChoice<typename A::Value> rank_moves(const Team& team, const SearchMatrices<A>& m,
                                               const TabuChain<A>& c, const ChainRegs<A>& r,
                                               const StepSettings& s) {
  MoveRanker<A> rank(c, r, s);
  for (int k = team.rank(); k < s.pairs; k += team.size())
    rank.in_order(pair_first(m.pairs[k]), pair_second(m.pairs[k]), c.delta[k]);
  return rank.choice;
}

// Brings the delta matrix up to date after the move (u, v), u < v, made by tabu_move: O(1) per pair disjoint
// from {u, v} and O(n) for the 2n - 3 others, which the team takes one per group of `Lanes` threads (groups
// that take consecutive partners read consecutive words). Each pair's new delta is offered to `offer` by the
// thread that wrote it. Does not synchronise the team.
template <bool Symmetric, int Lanes, class A, class Team, class Offer>
KS_HD void update_deltas(const Team& team, const SearchMatrices<A>& m, const TabuChain<A>& c,
                         const StepSettings& s, int u, int v, Offer& offer) {
  using V = typename A::Value;
  const int n = s.n, pitch = m.pitch;
  for (int k = team.rank(); k < s.pairs; k += team.size()) {
    const int i = pair_first(m.pairs[k]), j = pair_second(m.pairs[k]);
    if (i == u || i == v || j == u || j == v) continue;
    const V d = Symmetric ? c.vec.updated_symmetric(c.delta[k], i, j) : c.vec.updated(c.delta[k], i, j);
    c.delta[k] = d;
    offer.in_order(i, j, d);
  }
  // The pairs that touch the move: {u, w} for every w != u, then {v, w} for every w != u, v, each taken by
  // `Lanes` neighbouring threads, each of which sums every Lanes-th k of the pair's O(n) sum (integers: the
  // whole rows, the pair's own two terms taken out at the end).
  const int touching = 2 * n - 3;
  const IdentityPlacement place{};
  constexpr bool whole_rows = Symmetric && A::exact;
  for (int first = 0; first < touching * Lanes; first += team.size()) {
    const int slot = first + team.rank(), t = slot / Lanes, part = slot % Lanes;
    const bool mine = t < touching;
    int lo = 0, hi = 1;
    V terms = 0;
    if (mine) {
      const int a = t < n - 1 ? u : v;
      int w = t < n - 1 ? t : t - (n - 1);
      if (w >= u) ++w;
      if (t >= n - 1 && w >= v) ++w;
      lo = a < w ? a : w;
      hi = a < w ? w : a;
      if constexpr (whole_rows && std::is_same_v<matrix_t<A>, std::int8_t>)
        terms = swap_delta_symmetric_words<A>(c.P, m.cost_of, pitch, n, lo, hi, part, Lanes);
      else if constexpr (Symmetric)
        terms =
            swap_delta_symmetric_terms<A, whole_rows>(c.P, m.cost_of, place, pitch, n, lo, hi, part, Lanes);
      else
        terms = swap_delta_terms<A>(c.P, m.cost_of, place, pitch, n, lo, hi, part, Lanes);
    }
    if (Lanes > 1) terms = team.sum_lanes(terms, Lanes);
    if (!mine || part != 0) continue;
    if constexpr (whole_rows)
      terms = A::sub(terms, swap_delta_symmetric_end_terms<A>(c.P, m.cost_of, place, pitch, lo, hi));
    const V d = Symmetric ? swap_delta_symmetric_ends<A>(terms, c.P, m.cost_of, pitch, lo, hi, lo, hi)
                          : swap_delta_ends<A>(terms, c.P, m.cost_of, pitch, lo, hi, lo, hi);
    const int k = pair_index(lo, hi, n);
    c.delta[k] = d;
    offer(lo, hi, d);
  }
}

template <bool Symmetric, class A, class Team, class Offer>
KS_HD void update_deltas_in_lanes(const Team& team, const SearchMatrices<A>& m, const TabuChain<A>& c,
                                  const StepSettings& s, int u, int v, Offer& offer) {
  // Integer sums may be split (their order does not change them): where the team has threads to spare, two or
  // four share each O(n) sum, the longest work of a step. The lane counts are constants, so the strided
  // loops stay unrolled.
  const int lanes = A::exact ? team.lanes_for(2 * s.n - 3) : 1;
  if (lanes >= 4)
    update_deltas<Symmetric, 4>(team, m, c, s, u, v, offer);
  else if (lanes == 2)
    update_deltas<Symmetric, 2>(team, m, c, s, u, v, offer);
  else
    update_deltas<Symmetric, 1>(team, m, c, s, u, v, offer);
}

template <class A, class Team, class Offer>
KS_HD void update_delta_matrix(const Team& team, const SearchMatrices<A>& m, const TabuChain<A>& c,
                               const StepSettings& s, int u, int v, Offer& offer) {
  if (s.symmetric)
    update_deltas_in_lanes<true>(team, m, c, s, u, v, offer);
  else
    update_deltas_in_lanes<false>(team, m, c, s, u, v, offer);
}

// The delta matrix alone (tests); ends with the team synchronised.
template <class A, class Team>
KS_HD void update_delta_matrix(const Team& team, const SearchMatrices<A>& m, const TabuChain<A>& c,
                               const StepSettings& s, int u, int v) {
  NoRanking none;
  update_delta_matrix(team, m, c, s, u, v, none);
  team.sync();
}

// A band tenure: uniform in [band_low, band_high] (Taillard 1991).
KS_HD std::int32_t draw_band_tenure(SplitMix64& rng, const StepSettings& s) {
  return s.band_low + std::int32_t(rng.below(std::uint32_t(s.band_high - s.band_low + 1)));
}

// One step from the moves the team's threads ranked (`offered`, each thread's best): the move, the delta
// matrix brought up to date and the next step's moves ranked in the same pass. Returns this thread's best
// offer for the next step.
template <class A, class Team>
KS_HD MoveChoice<typename A::Value> tabu_step(const Team& team, const SearchMatrices<A>& m,
                                              const TabuChain<A>& c, ChainRegs<A>& r, const StepSettings& s,
                                              const MoveChoice<typename A::Value>& offered) {
  const int n = s.n;
  // A team's reduce_min synchronises it after every thread's ranking: the move below changes what was read.
  const MoveChoice<typename A::Value> choice = team.reduce_min(offered);
  if (r.clock >= kClockLimit) {
    // Moving the clock and every entry back keeps each comparison the ranks made (entries clamped to
    // -kClockShift were older than any aspiration and stay so), so the choice stands.
    for (int k = team.rank(); k < n * tabu_pitch(n); k += team.size()) {
      const std::int32_t t = c.tabu[k];
      c.tabu[k] = t < 0 ? -kClockShift : t - kClockShift;
    }
    r.clock -= kClockShift;
    team.sync();
  }

  const std::int32_t now = r.clock;
  const int u = pair_first(choice.pair), v = pair_second(choice.pair);
  std::int32_t tenure_u, tenure_v;
  if (s.band_high > 0) {
    if (r.tenure == 0 || r.iteration % s.band_period == 0) r.tenure = draw_band_tenure(r.rng, s);
    tenure_u = tenure_v = r.tenure;
  } else {
    const double u1 = r.rng.uniform(), u2 = r.rng.uniform();
    tenure_u = std::int32_t(mul_rn(mul_rn(mul_rn(u1, u1), u1), s.tenure_span));
    tenure_v = std::int32_t(mul_rn(mul_rn(mul_rn(u2, u2), u2), s.tenure_span));
  }
  tabu_move(team, m, c, n, u, v, now + tenure_u, now + tenure_v);
  r.cost = A::add(r.cost, choice.delta);
  ++r.clock;
  ++r.iteration;
  if (r.cost < r.best) {
    r.best = r.cost;
    r.best_iteration = r.iteration;
    for (int k = team.rank(); k < n; k += team.size()) c.best_p[k] = c.p[k];
  }
  MoveRanker<A> rank(c, r, s);
  update_delta_matrix(team, m, c, s, u, v, rank);
  return rank.choice;
}

// `steps` steps of one chain (a fresh chain starts first). Ends with the team synchronised.
template <class A, class Team>
KS_HD void tabu_steps(const Team& team, const SearchMatrices<A>& m, const TabuChain<A>& c, ChainRegs<A>& r,
                      const StepSettings& s, int steps) {
  if (r.fresh) tabu_start(team, m, c, r, s);
  if (steps <= 0) return;
  MoveChoice<typename A::Value> offered = rank_moves(team, m, c, r, s);
  for (int step = 0; step < steps; ++step) offered = tabu_step(team, m, c, r, s, offered);
  team.sync();
}

}  // namespace ks::topo
