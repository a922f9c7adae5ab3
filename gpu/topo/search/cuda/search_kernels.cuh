#pragma once
// The search's kernels: the steps of tabu_step.hpp and anneal_step.hpp, shared with the CPU backend, run by
//   tabu_kernel    one chain per block, its pairs dealt to the block's threads (BlockTeam); the placement,
//   the
//                  move vectors and, where they fit (TabuPlan), the path costs, the permuted traffic, the
//                  delta matrix and the tabu list in shared memory for the launch, the rest in global memory
//   anneal_kernel  one chain per thread; the block's placements in shared memory as columns (position k of
//                  thread t at k x blockDim + t: neighbouring threads hit neighbouring banks), the matrices
//                  in shared memory where they fit
// Each launch advances every chain by a number of steps and leaves its state in global memory.
#include <cuda_runtime.h>

#include <cstdint>

#include "topo/search/anneal_step.hpp"
#include "topo/search/chain_state.hpp"
#include "topo/search/packed_choice.hpp"
#include "topo/search/tabu_step.hpp"

namespace ks::topo::cuda {

inline constexpr int kMaxTabuThreads = 512;
inline constexpr int kAnnealThreads = 128;

// The least of a warp's keys, in every lane.
__device__ inline PackedChoice warp_min(PackedChoice k) {
#if __CUDA_ARCH__ >= 800
  const std::uint32_t high = __reduce_min_sync(0xFFFFFFFFu, k.high);
  return {high, __reduce_min_sync(0xFFFFFFFFu, k.high == high ? k.low : 0xFFFFFFFFu)};
#else
  for (int offset = 16; offset > 0; offset >>= 1) {
    const PackedChoice o{__shfl_xor_sync(0xFFFFFFFFu, k.high, offset),
                         __shfl_xor_sync(0xFFFFFFFFu, k.low, offset)};
    if (o.before(k)) k = o;
  }
  return k;
#endif
}

// A block as a team: threads take pairs in turn; the minimum of the block is reduced within each warp, then
// over one slot per warp in shared memory, and every thread returns it.
struct BlockTeam {
  void* scratch;  // kMaxTabuThreads / 32 slots of the reduced type

  __device__ int rank() const { return int(threadIdx.x); }
  __device__ int size() const { return int(blockDim.x); }
  __device__ void sync() const { __syncthreads(); }

  // For `count` sums, each taken by a group of `lanes` neighbouring threads at once: the most lanes, a power
  // of two up to a warp (so no group straddles two warps), for which the groups fit the block.
  __device__ int lanes_for(int count) const {
    int lanes = 1;
    while (lanes < 32 && 2 * lanes * count <= int(blockDim.x)) lanes *= 2;
    return lanes;
  }
  // The sum of v over this thread's group of `lanes` (integers: the order does not matter); every thread of
  // the warp takes part. V's own shuffle: one for a 32-bit sum, two for a 64-bit one.
  template <class V>
  __device__ V sum_lanes(V v, int lanes) const {
    for (int offset = lanes >> 1; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xFFFFFFFFu, v, offset);
    return v;
  }

  // The least choice of the block, in every thread: each warp's least, then the least of one slot per warp
  // in shared memory. 32-bit choices: packed (PackedChoice), and every warp takes the least of the slots one
  // a lane; wider ones: by shuffles, and each thread reads the slots one by one (a lane-wide reduction of
  // the slots left the int64 kernel of global memory spilling 8 bytes: ptxas, sm_90).
  __device__ MoveChoice<std::int32_t> reduce_min(const MoveChoice<std::int32_t>& c) const {
    PackedChoice* slots = static_cast<PackedChoice*>(scratch);
    const PackedChoice least = warp_min(PackedChoice::pack(c));
    if ((threadIdx.x & 31) == 0) slots[threadIdx.x >> 5] = least;
    __syncthreads();
    const int lane = int(threadIdx.x & 31);
    return warp_min(lane < int(blockDim.x >> 5) ? slots[lane] : PackedChoice{}).unpack();
  }

  template <class C>
  __device__ C reduce_min(C c) const {
    for (int offset = 16; offset > 0; offset >>= 1) {
      C o;
      o.rank = __shfl_down_sync(0xFFFFFFFFu, c.rank, offset);
      o.delta = __shfl_down_sync(0xFFFFFFFFu, c.delta, offset);
      o.pair = __shfl_down_sync(0xFFFFFFFFu, c.pair, offset);
      if (o.before(c)) c = o;
    }
    C* slots = static_cast<C*>(scratch);
    if ((threadIdx.x & 31) == 0) slots[threadIdx.x >> 5] = c;
    __syncthreads();
    C best = slots[0];
    for (int w = 1; w < int(blockDim.x >> 5); ++w)
      if (slots[w].before(best)) best = slots[w];
    return best;
  }
};

// Where a tabu launch keeps what (decided on the host from the shared memory it may use): the placement and
// the move vectors always in shared memory, then, as far as they fit and in this order, the path costs, the
// permuted traffic, the delta matrix and the tabu list (tabu_step.hpp); the rest stays in global memory. The
// path costs and the traffic are of matrix_t<A>: 8 or 16 bits where every entry fits (ExactInt32In).
struct TabuPlan {
  bool costs_shared = false, permuted_shared = false, delta_shared = false, tabu_shared = false;
  unsigned bytes = 0;  // dynamic shared memory per block
};

// The plans a tabu kernel is compiled for. Where the plan is known at compile time, every array's pointer
// comes from one memory space and the compiler addresses it as shared (or global) memory, with 32-bit
// addresses for shared memory; through a pointer that may be either, each access is a generic one with
// 64-bit address arithmetic, most of the instructions of a step's inner loops (docs/PERF.md).
enum class TabuSpaces {
  Planned,     // as TabuPlan says, read at run time
  Matrices,    // the path costs and the permuted traffic in shared memory, the rest in global memory
  Everything,  // all four in shared memory
};

// The compiled plan that serves `plan` best: a fixed one where it is one, else Planned.
inline TabuSpaces tabu_spaces(const TabuPlan& plan) {
  if (plan.costs_shared && plan.permuted_shared)
    return plan.delta_shared && plan.tabu_shared     ? TabuSpaces::Everything
           : !plan.delta_shared && !plan.tabu_shared ? TabuSpaces::Matrices
                                                     : TabuSpaces::Planned;
  return TabuSpaces::Planned;
}

template <class A>
struct TabuLaunch {
  using V = typename A::Value;
  using M = matrix_t<A>;
  const M* traffic;  // n x n (read when a chain starts)
  const M* cost_of;  // n x pitch
  const std::uint32_t* pairs;
  ChainHeader* headers;
  std::uint16_t* p;       // chains x n
  std::uint16_t* best_p;  // chains x n
  M* permuted;            // chains x n x pitch
  std::int32_t* tabu;     // chains x n x tabu_pitch(n)
  V* delta;               // chains x pairs
  StepSettings step;
  int pitch;  // of the path costs and the permuted traffic (matrix_pitch)
  TabuPlan plan;
};

// Carves aligned pieces out of dynamic shared memory, in the order the host's plan counted them.
struct SharedCarver {
  unsigned char* at;
  template <class T>
  __device__ T* take(std::size_t count) {
    T* p = reinterpret_cast<T*>(at);
    at += (count * sizeof(T) + 15) & ~std::size_t(15);
    return p;
  }
};

template <class T>
__device__ void block_copy(T* to, const T* from, int count) {
  for (int k = int(threadIdx.x); k < count; k += int(blockDim.x)) to[k] = from[k];
}

// A piece of shared memory or its global counterpart, as the plan says; where S fixes the plan, the choice is
// made at compile time (see TabuSpaces).
template <TabuSpaces S, bool FixedShared, class T>
__device__ T* placed(bool planned_shared, SharedCarver& carve, T* global, std::size_t count) {
  if constexpr (S == TabuSpaces::Planned)
    return planned_shared ? carve.take<T>(count) : global;
  else if constexpr (FixedShared)
    return carve.take<T>(count);
  else
    return global;
}

// Two blocks of the most threads an SM, so at most 64 registers a thread: nvcc keeps the integer kernels
// there on its own (0: no minimum; asking 1 takes them to 72-110), and would take the double ones with their
// matrices in shared memory to 108-128 (ptxas, sm_90).
template <class A>
inline constexpr int kTabuMinBlocksPerSm = A::exact ? 0 : 2;

template <class A, TabuSpaces S>
__global__ void __launch_bounds__(kMaxTabuThreads, kTabuMinBlocksPerSm<A>)
    tabu_kernel(TabuLaunch<A> L, int steps) {
  using V = typename A::Value;
  using M = matrix_t<A>;
  extern __shared__ __align__(16) unsigned char shared[];
  // The matrices' entries and the tabu list's (rows matrix_pitch and tabu_pitch apart).
  const int n = L.step.n, pairs = L.step.pairs, area = n * L.pitch, tabu_area = n * tabu_pitch(n);
  const std::size_t c = blockIdx.x;
  constexpr bool matrices = S != TabuSpaces::Planned, state = S == TabuSpaces::Everything;
  const TabuPlan plan = matrices ? TabuPlan{true, true, state, state, L.plan.bytes} : L.plan;
  SharedCarver carve{shared};
  // 8-byte pieces first, so that every piece stays aligned.
  auto* vectors = carve.take<typename MoveVectors<A>::Slot>(std::size_t(MoveVectors<A>::slots(n)));
  void* scratch = carve.take<MoveChoice<V>>(kMaxTabuThreads / 32);
  const M* cost_of = placed<S, matrices>(L.plan.costs_shared, carve, L.cost_of, std::size_t(area));
  if (plan.costs_shared) block_copy(const_cast<M*>(cost_of), L.cost_of, area);
  M* const permuted_global = L.permuted + c * std::size_t(area);
  M* permuted = placed<S, matrices>(L.plan.permuted_shared, carve, permuted_global, std::size_t(area));
  V* const delta_global = L.delta + c * std::size_t(pairs);
  V* delta = placed<S, state>(L.plan.delta_shared, carve, delta_global, std::size_t(pairs));
  std::int32_t* const tabu_global = L.tabu + c * std::size_t(tabu_area);
  std::int32_t* tabu = placed<S, state>(L.plan.tabu_shared, carve, tabu_global, std::size_t(tabu_area));
  std::uint16_t* p = carve.take<std::uint16_t>(std::size_t(n));

  ChainRegs<A> r;
  r.load(L.headers[c]);
  block_copy(p, L.p + c * std::size_t(n), n);
  if (!r.fresh) {  // a fresh chain computes them anew
    if (plan.permuted_shared) block_copy(permuted, permuted_global, area);
    if (plan.delta_shared) block_copy(delta, delta_global, pairs);
    if (plan.tabu_shared) block_copy(tabu, tabu_global, tabu_area);
  }
  __syncthreads();

  TabuChain<A> chain;
  chain.p = p;
  chain.best_p = L.best_p + c * std::size_t(n);
  chain.P = permuted;
  chain.tabu = tabu;
  chain.delta = delta;
  chain.vec = MoveVectors<A>{vectors, n};
  const SearchMatrices<A> m{L.traffic, cost_of, L.pairs, L.pitch};
  tabu_steps(BlockTeam{scratch}, m, chain, r, L.step, steps);  // ends synchronised

  block_copy(L.p + c * std::size_t(n), p, n);
  if (plan.permuted_shared) block_copy(permuted_global, permuted, area);
  if (plan.delta_shared) block_copy(delta_global, delta, pairs);
  if (plan.tabu_shared) block_copy(tabu_global, tabu, tabu_area);
  if (threadIdx.x == 0) r.store(L.headers[c]);
}

template <class A>
struct AnnealLaunch {
  using V = typename A::Value;
  const V* traffic;
  const V* cost_of;
  ChainHeader* headers;
  std::uint16_t* p;       // chains x n
  std::uint16_t* best_p;  // chains x n
  int chains;
  StepSettings step;
  bool matrices_shared = false, placements_shared = false;
};

template <class A>
__global__ void __launch_bounds__(kAnnealThreads) anneal_kernel(AnnealLaunch<A> L, int steps) {
  using V = typename A::Value;
  extern __shared__ __align__(16) unsigned char shared[];
  const int n = L.step.n, nn = n * n;
  const int first = int(blockIdx.x) * int(blockDim.x);
  const int here = min(int(blockDim.x), L.chains - first);  // chains of this block
  SharedCarver carve{shared};
  const V* traffic = L.traffic;
  const V* cost_of = L.cost_of;
  if (L.matrices_shared) {
    V* t = carve.take<V>(std::size_t(nn));
    V* d = carve.take<V>(std::size_t(nn));
    block_copy(t, L.traffic, nn);
    block_copy(d, L.cost_of, nn);
    traffic = t;
    cost_of = d;
  }
  std::uint16_t* columns = nullptr;
  const std::size_t base = std::size_t(first) * std::size_t(n);
  if (L.placements_shared) {
    columns = carve.take<std::uint16_t>(std::size_t(n) * blockDim.x);
    // The block's chains are consecutive rows in global memory: read them in order, write them as columns.
    for (int k = int(threadIdx.x); k < here * n; k += int(blockDim.x))
      columns[(k % n) * int(blockDim.x) + k / n] = L.p[base + std::size_t(k)];
  }
  __syncthreads();
  if (int(threadIdx.x) < here) {
    const std::size_t c = std::size_t(first) + threadIdx.x;
    ChainRegs<A> r;
    r.load(L.headers[c]);
    const StridedPlacement p = L.placements_shared ? StridedPlacement{columns + threadIdx.x, int(blockDim.x)}
                                                   : StridedPlacement{L.p + c * std::size_t(n), 1};
    std::uint16_t* best = L.best_p + c * std::size_t(n);
    const SearchMatrices<A> m{traffic, cost_of, nullptr, n};
    anneal_steps(m, p, best, r, L.step, steps);
    r.store(L.headers[c]);
  }
  if (L.placements_shared) {
    __syncthreads();
    for (int k = int(threadIdx.x); k < here * n; k += int(blockDim.x))
      L.p[base + std::size_t(k)] = columns[(k % n) * int(blockDim.x) + k / n];
  }
}

// Copies restarted chains' placements into place: rows[k] of `staged` to chain which[k].
__global__ void scatter_placements(std::uint16_t* p, const std::uint16_t* staged, const int* which, int count,
                                   int n) {
  const long long total = (long long)count * n;
  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < total;
       k += (long long)gridDim.x * blockDim.x)
    p[(long long)which[k / n] * n + k % n] = staged[k];
}

}  // namespace ks::topo::cuda
