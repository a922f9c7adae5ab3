#pragma once
// The enumeration at the heart of the topology sweep, shared verbatim by the CPU backend and the CUDA kernels.
//
// cost(t, p, c) = sum over positions i, j of D_c[i][j] * T_t[p(i)][p(j)]: D_c is the path cost between positions
// in configuration c, T_t the traffic between nodes at timestamp t, p the placement (node p(i) at position i).
// Diagonal terms count too, as in QAPLIB; route costs have a zero diagonal, so for topologies they vanish.
//
// A run is a block of consecutive placement indices. Its first placement is decoded from its index (factorial
// number system), evaluated in full (O(n^2)), and every following placement differs from the previous one by a
// swap of two positions, whose effect on the cost is computed in O(n) (the delta below). Within a run,
// placements come in blocks that share the nodes of positions 0 .. q-1; Heap's algorithm walks the m! orders of
// the last m positions, then a few swaps move the prefix to the next one in lexicographic order.
//
// For n >= 5 (SuffixWalker) a swap inside the last 5 positions costs O(1): see there.
//
// Sweeps of n = 17 fix the node of position 0 per run (a head, sweep_head.hpp) and walk the other 16 positions as a
// sweep of 16 nodes plus a linear term: the walkers' Headed form, which adds that term where a whole evaluation or
// an O(n) swap is made, and starts each block's table of the prefix's share from it. A swap inside the last five
// positions, the work of nearly every placement, is the same instructions with or without a head.
#include <cstdint>
#include <limits>

#include "core/hd.hpp"
#include "topo/arith.hpp"
#include "topo/block_sum.hpp"
#include "topo/permutation.hpp"
#include "topo/swap_delta.hpp"
#include "topo/sweep/sweep_head.hpp"

namespace ks::topo {

// The shape of the enumeration, the same for every run of a sweep.
struct RunGeometry {
  int n = 0;                        // nodes (and positions)
  int q = 0;                        // prefix positions; the last n - q positions are permuted inside a block
  int heap_steps = 0;               // (n - q)! - 1 swaps per block
  const std::uint8_t* heap = nullptr;  // HeapSwaps::step, (a << 4) | b relative to position q
};

// One run: where it starts, how many blocks, and (for runs cut by the ends of a requested index range) which
// codes count. Placements outside [lo, hi) are still enumerated, since the walk passes through them, but not
// visited.
struct RunBounds {
  std::uint64_t head = 0;         // the head number (0 without a head)
  std::uint64_t first_index = 0;  // within the head's placements (all of them without a head)
  std::uint64_t blocks = 0;
  bool masked = false;
  std::uint64_t lo_code = 0;
  std::uint64_t hi_code = 0;
  bool hi_open = true;  // no upper limit: the range ends at n!

  KS_HD bool counts(std::uint64_t code) const {
    return !masked || (code >= lo_code && (hi_open || code < hi_code));
  }
  // counts(code_of()), the code asked for only in a cut run.
  template <class CodeOf>
  KS_HD bool takes(const CodeOf& code_of) const {
    return !masked || counts(code_of());
  }
};

// The ends of a requested range as the runs of one head see them (codes are the head's tail codes,
// sweep_head.hpp): lo's code in lo's head, else no lower limit; hi's in hi's head, else none. Without a head: the
// codes of lo and hi.
struct RangeCodes {
  std::uint64_t lo_code = 0;
  std::uint64_t hi_code = ~std::uint64_t(0);
  bool hi_open = true;
};

// How a sweep's runs are numbered (SweepPlan makes it; the CUDA kernels take a copy): run r is run r % runs_per_head
// of head r / runs_per_head, whose runs hold run_size placements but the last, which ends at the head's end.
struct RunLayout {
  std::uint64_t run_size = 0, block_size = 0;
  std::uint64_t tail_total = 0;     // placements per head (n! without a head)
  std::uint64_t runs_per_head = 0;
  std::uint64_t lo = 0, hi = 0;     // the requested placements
  bool hi_is_end = true;            // hi = n!
  std::uint64_t lo_code = 0, hi_code = 0;  // of lo and hi within their heads

  KS_HD std::uint64_t run_start(std::uint64_t r) const {
    return (r / runs_per_head) * tail_total + (r % runs_per_head) * run_size;
  }
  KS_HD RangeCodes codes_of_head(std::uint64_t head) const {
    RangeCodes c;
    if (head == lo / tail_total) c.lo_code = lo_code;
    if (!hi_is_end && head == hi / tail_total) {
      c.hi_code = hi_code;
      c.hi_open = false;
    }
    return c;
  }
  // Run r of head `head`. The CUDA walks take the head and its codes from their launch (one head a launch): as
  // kernel parameters they cost the walk no registers, and no 64-bit division.
  KS_HD RunBounds run_of_head(std::uint64_t r, std::uint64_t head, const RangeCodes& codes) const {
    RunBounds b;
    b.head = head;
    b.first_index = (r - head * runs_per_head) * run_size;
    const std::uint64_t tail_end = b.first_index + run_size < tail_total ? b.first_index + run_size : tail_total;
    b.blocks = (tail_end - b.first_index) / block_size;
    const std::uint64_t first = b.head * tail_total + b.first_index, end = b.head * tail_total + tail_end;
    b.masked = first < lo || end > hi;
    b.lo_code = codes.lo_code;
    b.hi_open = codes.hi_open;
    b.hi_code = codes.hi_code;
    return b;
  }
  KS_HD RunBounds run(std::uint64_t r) const {
    const std::uint64_t head = r / runs_per_head;
    return run_of_head(r, head, codes_of_head(head));
  }
};

// A run that no range end cuts, known at compile time: the walk tests nothing per placement (the CUDA Stats walk
// in float, which gets only such runs: topo_cuda.cu).
struct WholeRun : RunBounds {
  template <class CodeOf>
  KS_HD static constexpr bool takes(const CodeOf&) {
    return true;
  }
};

// The cost of the current placement for one (slice, configuration), kept up to date across swaps. Headed: the
// walk of one head's tail (n its tail positions, traffic relabelled; see the top), with the head's share added.
template <class A, int N, bool Headed = false>
struct Walker {
  using V = typename A::Value;
  static constexpr bool kHeaded = Headed;

  const V* traffic = nullptr;  // n x n, row-major: traffic[src][dst]
  const V* cost_of = nullptr;  // n x n path costs between positions
  int runtime_n = 0;           // used when N == 0
  std::uint64_t code = 0;
  V cost = V(0);
  // Headed: lin[i * n + x], the head's share of node x at position i, and the head's own cost; head_bits the
  // head number << kHeadKeyShift (sweep_key).
  const V* lin = nullptr;
  V constant = V(0);
  std::uint64_t head_bits = 0;

  KS_HD int n() const { return N > 0 ? N : runtime_n; }
  // The current placement's code (what visitors read; SuffixWalker keeps its last five nodes apart).
  KS_HD std::uint64_t placement_code() const { return code; }

  // From the definition, in a fixed order (i, then j) that every backend follows.
  KS_HD void evaluate_in_full() {
    const int nn = n();
    cost = V(0);
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#endif
    for (int i = 0; i < nn; ++i) {
      const int xi = node_at(code, i);
      for (int j = 0; j < nn; ++j) cost = A::mad(cost, cost_of[i * nn + j], traffic[xi * nn + node_at(code, j)]);
    }
    if constexpr (Headed) {
      for (int i = 0; i < nn; ++i) cost = A::add(cost, lin[i * nn + node_at(code, i)]);
      cost = A::add(cost, constant);
    }
  }

  // Swaps the nodes at positions r and s and updates the cost by the change, in O(n) (swap_delta.hpp).
  KS_HD void swap(int r, int s) {
    const int nn = n();
    if constexpr (Headed) {
      const int yr = node_at(code, r), ys = node_at(code, s);
      const V head_share = A::add(A::sub(lin[r * nn + ys], lin[r * nn + yr]), A::sub(lin[s * nn + yr], lin[s * nn + ys]));
      cost = A::add(cost, A::add(swap_delta_pitched<A, N, true>(traffic, cost_of, CodePlacement{code}, nn, nn, r, s),
                                 head_share));
    } else {
      cost = A::add(cost, swap_delta_pitched<A, N, true>(traffic, cost_of, CodePlacement{code}, nn, nn, r, s));
    }
    code = swap_positions(code, r, s);
  }

  // Heap's algorithm over the last n - q positions (the geometry's table of swaps), visiting each placement.
  template <class Bounds, class Visit>
  KS_HD void walk_block(const RunGeometry& g, const Bounds& b, Visit& visit) {
    walk_block_by_table(*this, g, b, visit);
  }
};

// The key of a walker's current placement (sweep_head.hpp): its code, or with a head the packed key.
template <class W>
KS_HD std::uint64_t sweep_key(const W& w) {
  if constexpr (W::kHeaded)
    return headed_key(w.head_bits, w.placement_code(), w.n());
  else
    return w.placement_code();
}

// Visits a block of placements through the geometry's table of Heap's swaps, one O(n) swap each. Any walker with
// `code` and `swap(r, s)` (the tests walk codes alone).
template <class W, class Bounds, class Visit>
KS_HD void walk_block_by_table(W& w, const RunGeometry& g, const Bounds& b, Visit& visit) {
  for (int step = 0;; ++step) {
    if (b.takes([&w] { return w.code; })) visit(w);
    if (step == g.heap_steps) break;
    const int pair = g.heap[step];
    w.swap(g.q + (pair >> 4), g.q + (pair & 15));
  }
}

// Heap's algorithm on 5 slots, as the walk below unrolls it: the 23 swaps of Heap's algorithm on slots 0..3,
// then slots 0 and 4 swapped, five times over (the last time without the swap); make_heap_swaps(5) is exactly
// this sequence (a test checks it). Heap's algorithm on 4 slots is in turn 5 swaps on slots 0..2 ((0,1) and
// (0,2) alternately) then (t, 3) for t = 0, 1, 2, three times over, then the 5 swaps again.
inline constexpr int kSuffixSlots = 5;
inline constexpr int kInnerSteps = 23;       // swaps of Heap's algorithm on 4 slots
inline constexpr int kSuffixSteps = 24;      // the 23, and the swap of slots 0 and 4
inline constexpr int kStepCoefficients = 8;  // path-cost differences a suffix swap needs
KS_HD constexpr int suffix_step_a(int step) {
  return step == kInnerSteps ? 0 : (step % 6 == 5 ? step / 6 : 0);
}
KS_HD constexpr int suffix_step_b(int step) {
  return step == kInnerSteps ? kSuffixSlots - 1 : (step % 6 == 5 ? 3 : (step % 2 == 0 ? 1 : 2));
}

// The path-cost differences of suffix step `step` (slots r < s of positions q + r, q + s), in the order
// SuffixWalker::swap_suffix takes them: for each other slot k ascending, D[k][r] - D[k][s] and D[r][k] - D[s][k];
// then D[r][s] - D[s][r] and D[r][r] - D[s][s]. They depend only on positions, so a sweep computes them once.
template <class A>
KS_HD void suffix_coefficients(const typename A::Value* cost_of, int n, int q, int step, typename A::Value* out) {
  const int r = q + suffix_step_a(step), s = q + suffix_step_b(step);
  int at = 0;
  for (int k = q; k < q + kSuffixSlots; ++k) {
    if (k == r || k == s) continue;
    out[at++] = A::sub(cost_of[k * n + r], cost_of[k * n + s]);
    out[at++] = A::sub(cost_of[r * n + k], cost_of[s * n + k]);
  }
  out[at++] = A::sub(cost_of[r * n + s], cost_of[s * n + r]);
  out[at] = A::sub(cost_of[r * n + r], cost_of[s * n + s]);
}

// The walker of sweeps of n >= 5 nodes: a swap inside the last 5 positions costs O(1) instead of O(n). Within a
// block the first q = n - 5 positions hold fixed nodes, so the delta of a swap splits into the prefix's share,
//   L(r, y_s) - L(r, y_r) - L(s, y_s) + L(s, y_r),  L(i, y) = sum over k < q of D[k][i] T[x_k][y] + D[i][k] T[y][x_k],
// read from a 5 x 5 table made once per block (lp), and the suffix's share, the O(n) formula's terms for the
// other three suffix positions, from a 5 x 5 table of the traffic between the suffix's nodes (pt). Both tables
// are indexed by position, and a swap exchanges their columns (and pt's rows): unrolled, with the step's slots
// known at compile time, that is a renaming of registers. The nodes of the suffix are renamed the same way (y),
// and `code` is brought up to date only at the end of the block: a visitor that needs the code asks for
// placement_code(). Per placement: about 20 additions and multiply-adds, whatever n, and no reads of the n x n
// matrices (on a GPU, no bank conflicts). Costs are exact in the exact
// policies; in RealDouble the CPU and CUDA follow this same sequence of roundings.
template <class A, int N, bool Headed = false>
struct SuffixWalker : Walker<A, N, Headed> {
  using V = typename A::Value;
  using Walker<A, N, Headed>::traffic;
  using Walker<A, N, Headed>::cost_of;
  using Walker<A, N, Headed>::code;
  using Walker<A, N, Headed>::cost;
  static constexpr int M = kSuffixSlots;

  const V* coefficients = nullptr;  // [kSuffixSteps][kStepCoefficients], from suffix_coefficients; on the GPU
                                    // in shared memory, 16-byte aligned (the kernel's shared memory starts there)
  int q = 0;
  V lp[M][M];  // lp[i][j] = L(q + i, node at q + j), plus lin[q + i][node at q + j] when Headed
  V pt[M][M];  // pt[i][j] = T[node at q + i][node at q + j]
  int y[M];    // y[j] = node at q + j; inside a block `code` holds only the prefix up to date

  KS_HD std::uint64_t placement_code() const {
    std::uint64_t suffix = 0;
    for (int j = 0; j < M; ++j) suffix = (suffix << 4) | std::uint64_t(y[j]);
    const int low = code_shift(q + M - 1);
    return (code & ~(std::uint64_t(0xFFFFF) << low)) | (suffix << low);
  }

  // The tables of the block whose prefix is in `code` now.
  KS_HD void begin_block(int prefix) {
    q = prefix;
    const int nn = this->n();
    for (int j = 0; j < M; ++j) y[j] = node_at(code, q + j);
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < M; ++j) {
        pt[i][j] = traffic[y[i] * nn + y[j]];
        if constexpr (Headed)
          lp[i][j] = this->lin[(q + i) * nn + y[j]];  // the head's share is one more linear term
        else
          lp[i][j] = V(0);
      }
    // k outermost: each prefix node's 10 traffic entries are read once. Every lp[i][j] still adds its terms in
    // the order k = 0, 1, ..., the order the CPU follows too.
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#endif
    for (int k = 0; k < q; ++k) {
      const int xk = node_at(code, k);
      V to[M], from[M];
      for (int j = 0; j < M; ++j) {
        to[j] = traffic[xk * nn + y[j]];
        from[j] = traffic[y[j] * nn + xk];
      }
      for (int i = 0; i < M; ++i) {
        const V d_in = cost_of[k * nn + q + i], d_out = cost_of[(q + i) * nn + k];
        for (int j = 0; j < M; ++j) lp[i][j] = A::mad(A::mad(lp[i][j], d_in, to[j]), d_out, from[j]);
      }
    }
  }

  // Swaps the nodes at positions q + r and q + s (r < s), with c = suffix_coefficients of that step.
  KS_HD void swap_suffix(int r, int s, const V* c) {
    V d = V(0);
    int at = 0;
    for (int k = 0; k < M; ++k) {
      if (k == r || k == s) continue;
      d = A::mad(A::mad(d, c[at], A::sub(pt[k][s], pt[k][r])), c[at + 1], A::sub(pt[s][k], pt[r][k]));
      at += 2;
    }
    d = A::mad(A::mad(d, c[at], A::sub(pt[s][r], pt[r][s])), c[at + 1], A::sub(pt[s][s], pt[r][r]));
    const V prefix_share = A::add(A::sub(lp[r][s], lp[r][r]), A::sub(lp[s][r], lp[s][s]));
    cost = A::add(cost, A::add(d, prefix_share));
    for (int i = 0; i < M; ++i) {
      exchange(lp[i][r], lp[i][s]);
      exchange(pt[i][r], pt[i][s]);
    }
    for (int j = 0; j < M; ++j) exchange(pt[r][j], pt[s][j]);
    exchange(y[r], y[s]);
  }

  template <class Bounds, class Visit>
  KS_HD void walk_block(const RunGeometry& g, const Bounds& b, Visit& visit) {
    begin_block(g.q);
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#endif
    for (int round = 0; round < M; ++round) {
#if defined(__CUDA_ARCH__)
      // Every round reads the same coefficients; an address the compiler cannot follow across rounds keeps it
      // from holding all 192 in registers instead (a loop without stores would spill). The coefficients are
      // in shared memory, 16-byte aligned (topo_kernels.cuh).
      unsigned shared_at = unsigned(__cvta_generic_to_shared(coefficients));
      asm volatile("" : "+r"(shared_at));
      const V* table = static_cast<const V*>(__builtin_assume_aligned(__cvta_shared_to_generic(shared_at), 16));
#else
      const V* table = coefficients;
#endif
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
      for (int step = 0; step <= kInnerSteps; ++step) {
        if (b.takes([this] { return placement_code(); })) visit(*this);
        if (step < kInnerSteps)
          swap_suffix(suffix_step_a(step), suffix_step_b(step), table + step * kStepCoefficients);
      }
      if (round + 1 < M) swap_suffix(0, M - 1, table + kInnerSteps * kStepCoefficients);
    }
    code = placement_code();
  }

 private:
  template <class T>
  KS_HD static void exchange(T& a, T& b) {
    const T t = a;
    a = b;
    b = t;
  }
};

// Moves positions 0 .. q-1 of a walker (anything with `code`, `n()` and `swap(r, s)`) to the next prefix in
// lexicographic order, by swaps (usually one).
template <class Walker>
KS_HD void advance_prefix(Walker& w, int q) {
  std::uint64_t target = w.code;
  next_prefix(target, w.n(), q);
  for (int i = 0; i < q; ++i) {
    const int want = node_at(target, i);
    if (node_at(w.code, i) == want) continue;
    int j = i + 1;
    while (node_at(w.code, j) != want) ++j;
    w.swap(i, j);
  }
}

// A block holds at most 5! placements (Heap's algorithm on at most kMaxHeapSlots positions).
static_assert(kSuffixSlots == kMaxHeapSlots && kSuffixSteps * kSuffixSlots <= int(kMaxBlockCosts));

// Walks one run, calling visit(walker) for every placement of the run that the bounds (RunBounds or WholeRun)
// count, and after each block visit.block_done() where the visitor has one.
template <class W, class Bounds, class Visit>
KS_HD void walk_run(W& w, const RunGeometry& g, const Bounds& b, Visit& visit) {
  w.code = code_of_index(b.first_index, g.n);
  w.evaluate_in_full();
  for (std::uint64_t block = 0;; ++block) {
    w.walk_block(g, b, visit);
    if constexpr (requires { visit.block_done(); }) visit.block_done();
    if (block + 1 >= b.blocks) break;
    advance_prefix(w, g.q);
  }
}

// Summary of the costs one worker has seen for one (slice, configuration): minimum with the smallest key among
// equal minima (the placement's code or index, or a sample number), maximum, sum and count.
template <class A>
struct RunningStats {
  using V = typename A::Value;
  V min = std::numeric_limits<V>::max();
  std::uint64_t key = ~std::uint64_t(0);
  V max = std::numeric_limits<V>::lowest();
  typename A::Sum sum{};
  std::uint64_t count = 0;

  BlockSum<A> block_sum;         // add_in_block: the costs since the last fold_block
  std::uint32_t block_count = 0;

  KS_HD void add(V cost, std::uint64_t k) {
    add_keyed(cost, [k] { return k; });
  }
  // add with the key from key_of(), called only for a cost at or below the minimum.
  template <class KeyOf>
  KS_HD void add_keyed(V cost, const KeyOf& key_of) {
    keep_extremes(cost, key_of);
    A::accumulate(sum, cost);
    ++count;
  }
  // add_keyed for at most kMaxBlockCosts costs, then fold_block (the CUDA walk in float: see block_sum.hpp).
  template <class KeyOf>
  KS_HD void add_in_block(V cost, const KeyOf& key_of) {
    keep_extremes(cost, key_of);
    block_sum.add(sum, cost);
    ++block_count;
  }
  KS_HD void fold_block() {
    block_sum.fold(sum, block_count);
    count += block_count;
    block_count = 0;
  }
  KS_HD void merge(const RunningStats& o) {
    if (o.min < min || (o.min == min && o.key < key)) {
      min = o.min;
      key = o.key;
    }
    if (o.max > max) max = o.max;
    merge_sum(o.sum);
    count += o.count;
  }

 private:
  // One comparison in the common case (a cost above the minimum); the key only for a cost at or below it.
  template <class KeyOf>
  KS_HD void keep_extremes(V cost, const KeyOf& key_of) {
    if (cost <= min) {
      const std::uint64_t k = key_of();
      if (cost < min || k < key) {
        min = cost;
        key = k;
      }
    }
    max = A::larger(max, cost);
  }
  KS_HD void merge_sum(const Sum128& s) { sum.add(s); }
  KS_HD void merge_sum(double s) { A::accumulate(sum, s); }
};

}  // namespace ks::topo
