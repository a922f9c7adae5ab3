#pragma once
// The CUDA kernels of the topology sweep. Two shapes of thread, one set of reductions:
//   walk_kernel  ("delta") a thread walks one run of the sweep plan (sweep_core.hpp: the first placement
//                decoded from its index, then one swap and its delta per placement: O(1) inside the last five
//                positions for n >= 5 (SuffixWalker), O(n) otherwise) for one (slice, configuration) per block
//                row; the block's traffic and path costs sit in shared memory. A sweep with a head
//                (sweep_head.hpp) launches it once per head, with that head's tables (Headed: its linear share
//                in shared memory too).
//   item_kernel  ("naive", samples, given placements) a thread evaluates whole placements, each from the
//                definition, for one (slice, configuration); placements come from their index, a sample
//                number or a list.
// Reductions, by pass: Stats (per thread RunningStats, merged across the block in thread order, then across
// blocks in block order by reduce_stats: deterministic), Histogram (shared-memory counts, then global
// atomics: integers, order-free), Top (every cost within the given bin of its configuration is appended to a
// candidate list), Cube (every cost written at its placement's row).
#include <cstdint>

#include "topo/random.hpp"
#include "topo/sweep/sweep_backend.hpp"
#include "topo/sweep/sweep_core.hpp"

namespace ks::topo::cuda {

// What every launch of a pass takes (by value: kernel parameters).
template <class V>
struct PassArgs {
  const V* traffic = nullptr;  // [slice][n][n]
  const V* cost = nullptr;     // [config][n][n]
  int n = 0;
  int slice0 = 0, slices = 0;  // the slices this pass covers: slice0 .. slice0 + slices - 1
  int configs = 0;             // all configurations (block row y = (slice - slice0) * configs + config)
  Pass pass = Pass::Stats;
  // Walk: runs [unit0, unit0 + units) of the plan (of one head: n, traffic and cost are then the tail's).
  std::uint64_t unit0 = 0, units = 0;
  int q = 0, heap_steps = 0;
  std::uint8_t heap[119] = {};
  RunLayout runs;
  std::uint64_t head = 0;        // the head of the launch's runs (0 without a head)
  RangeCodes codes;              // the range's ends as that head's runs see them
  const V* lin = nullptr;        // Headed walk: the head's lin, [slice][config][n][n] (head_tables.hpp)
  const V* constants = nullptr;  // ... and its constant, [slice][config]
  std::uint64_t head_bits = 0;   // the head number << kHeadKeyShift
  std::uint64_t head_first = 0;  // the index of the head's first placement (0 without a head)
  SweepKeys keys;                // mode All, items: their keys
  // Items: item0 .. item0 + units - 1; mode All: placement indices, Sample: sample numbers, Given: list rows.
  PlacementMode mode = PlacementMode::All;
  std::uint64_t seed = 0;
  const std::uint8_t* listed = nullptr;
  // Outputs.
  RawStats* partial = nullptr;           // Stats: [block row][block x]
  const HistogramBins* bins = nullptr;   // Histogram, Top: [pair]
  unsigned long long* counts = nullptr;  // Histogram: [pair][64]
  const int* top_bin = nullptr;          // Top: [config], the last bin whose costs are candidates
  Candidate* top = nullptr;              // Top: candidates
  unsigned long long* top_count = nullptr;
  unsigned long long top_capacity = 0;
  std::int64_t* cube_i = nullptr;  // Cube: [placement - cube_first][pair]
  double* cube_d = nullptr;
  std::uint64_t cube_first = 0;
  int pairs = 0;
};

template <class A>
__device__ __forceinline__ int bin_of(typename A::Value v, const HistogramBins& b) {
  if constexpr (A::exact)
    return exact_bin(A::to_int(v), b);
  else
    return real_bin(v, b);
}

// What a thread does with one cost: the pass's reduction, for the block row's (slice, configuration).
template <class A>
struct Sink {
  using V = typename A::Value;
  const PassArgs<V>& a;
  int slice = 0, config = 0;
  RunningStats<A> stats;
  unsigned* block_counts = nullptr;     // shared: [64]
  const HistogramBins* bins = nullptr;  // shared: this pair's bins

  __device__ int pair() const { return slice * a.configs + config; }

  // key_of() gives the placement's key, index_of() its index (the Cube's row), asked for only where the pass needs
  // them (a walker builds them).
  template <class KeyOf, class IndexOf>
  __device__ __forceinline__ void take(V v, const KeyOf& key_of, const IndexOf& index_of) {
    switch (a.pass) {
      case Pass::Stats:
        stats.add_keyed(v, key_of);
        break;
      case Pass::Histogram:
        atomicAdd(&block_counts[bin_of<A>(v, *bins)], 1u);
        break;
      case Pass::Top:
        if (bin_of<A>(v, *bins) <= a.top_bin[config]) {
          const unsigned long long at = atomicAdd(a.top_count, 1ull);
          if (at < a.top_capacity) {
            Candidate k;
            if constexpr (A::exact)
              k.cost_i = A::to_int(v);
            else
              k.cost_d = v;
            k.key = key_of();
            k.configuration = config;
            a.top[at] = k;
          }
        }
        break;
      case Pass::Cube: {
        const std::size_t at = std::size_t(index_of() - a.cube_first) * std::size_t(a.pairs) + std::size_t(pair());
        if constexpr (A::exact)
          a.cube_i[at] = A::to_int(v);
        else
          a.cube_d[at] = v;
        break;
      }
    }
  }
};

// Block-wide merge of the stats in thread order (deterministic), written to partial[block row][block]; or the
// block's histogram added to the pair's.
template <class A>
__device__ void finish_block(Sink<A>& sink, RawStats* scratch, const PassArgs<typename A::Value>& a) {
  const int tid = threadIdx.x;
  if (a.pass == Pass::Stats) {
    to_raw(sink.stats, scratch[tid]);
    __syncthreads();
    for (int stride = 1; stride < blockDim.x; stride *= 2) {
      if (tid % (2 * stride) == 0 && tid + stride < blockDim.x) merge_raw(scratch[tid], scratch[tid + stride], A::exact);
      __syncthreads();
    }
    if (tid == 0) a.partial[std::size_t(blockIdx.y) * gridDim.x + blockIdx.x] = scratch[0];
  } else if (a.pass == Pass::Histogram) {
    __syncthreads();
    for (int k = tid; k < kHistogramBins; k += blockDim.x) {
      const unsigned v = sink.block_counts[k];
      if (v) atomicAdd(&a.counts[std::size_t(sink.pair()) * kHistogramBins + k], (unsigned long long)v);
    }
  }
}

// Shared memory of a block: the suffix coefficients (first, so that each step's row is 16-byte aligned and
// loads in 16-byte pieces), its pair's matrices (and a head's lin), bins and counts, then the reduction scratch.
template <class V>
struct SharedLayout {
  static __host__ __device__ std::size_t matrices(int n, bool headed) {
    return ((headed ? 3 : 2) * std::size_t(n * n) + kSuffixSteps * kStepCoefficients) * sizeof(V);
  }
  static __host__ __device__ std::size_t bytes(int n, int threads, bool headed = false) {
    return matrices(n, headed) + sizeof(HistogramBins) + kHistogramBins * sizeof(unsigned) +
           std::size_t(threads) * sizeof(RawStats) + 64;
  }
};

// Loads the block row's pair into shared memory and sets up the sink.
template <class A>
struct BlockSetup {
  const typename A::Value* traffic;
  const typename A::Value* cost;
  const typename A::Value* coefficients;  // suffix_coefficients of every step (walks of n >= 5)
  RawStats* scratch;
  const typename A::Value* lin = nullptr;  // Headed
  typename A::Value constant = 0;
};

template <class A, bool Headed = false>
__device__ BlockSetup<A> setup_block(const PassArgs<typename A::Value>& a, unsigned char* smem, Sink<A>& sink) {
  using V = typename A::Value;
  const int nn = a.n * a.n;
  sink.slice = a.slice0 + int(blockIdx.y) / a.configs;
  sink.config = int(blockIdx.y) % a.configs;
  V* coefficients = reinterpret_cast<V*>(smem);
  V* m = coefficients + kSuffixSteps * kStepCoefficients;
  for (int k = threadIdx.x; k < nn; k += blockDim.x) {
    m[k] = a.traffic[std::size_t(sink.slice) * nn + k];
    m[nn + k] = a.cost[std::size_t(sink.config) * nn + k];
    if constexpr (Headed) m[2 * nn + k] = a.lin[std::size_t(sink.pair()) * nn + k];
  }
  unsigned char* p = smem + SharedLayout<V>::matrices(a.n, Headed);
  p = reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(p) + 15) & ~std::uintptr_t(15));
  HistogramBins* bins = reinterpret_cast<HistogramBins*>(p);
  p += sizeof(HistogramBins);
  unsigned* counts = reinterpret_cast<unsigned*>(p);
  p += kHistogramBins * sizeof(unsigned);
  p = reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(p) + 15) & ~std::uintptr_t(15));
  if (a.bins && threadIdx.x == 0) *bins = a.bins[sink.pair()];
  for (int k = threadIdx.x; k < kHistogramBins; k += blockDim.x) counts[k] = 0;
  sink.bins = bins;
  sink.block_counts = counts;
  __syncthreads();  // the path costs are in place
  if (a.q + kSuffixSlots == a.n && threadIdx.x < kSuffixSteps)
    suffix_coefficients<A>(m + nn, a.n, a.q, threadIdx.x, coefficients + threadIdx.x * kStepCoefficients);
  __syncthreads();
  BlockSetup<A> setup{m, m + nn, coefficients, reinterpret_cast<RawStats*>(p)};
  if constexpr (Headed) {
    setup.lin = m + 2 * nn;
    setup.constant = a.constants[sink.pair()];
  }
  return setup;
}

// The run of unit `unit`, as the plan cuts it (SweepPlan::run, from the launch's copy of its layout).
template <class V>
__device__ RunBounds run_bounds(const PassArgs<V>& a, std::uint64_t unit) {
  return a.runs.run_of_head(a.unit0 + unit, a.head, a.codes);
}

// What a Stats walk does with each placement: the extremes at once, the sum and count once per block (the
// cheaper per-placement form of RunningStats::add; block_sum.hpp).
template <class A>
struct StatsVisit {
  RunningStats<A>& stats;
  template <class W>
  __device__ __forceinline__ void operator()(const W& x) {
    stats.add_in_block(x.cost, [&x] { return sweep_key(x); });
  }
  __device__ __forceinline__ void block_done() { stats.fold_block(); }
};

// One thread walks one run with walker W (SuffixWalker for n >= 5, Walker below); a Stats pass (kStats: runs that
// no range end cuts) with nothing but the statistics in its loop, the other passes through the sink's switch.
template <class A, bool kStats, class W>
__device__ void walk_unit(const PassArgs<typename A::Value>& a, const BlockSetup<A>& setup, const std::uint8_t* heap,
                          Sink<A>& sink, W& w) {
  const std::uint64_t unit = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (unit >= a.units) return;
  w.traffic = setup.traffic;
  w.cost_of = setup.cost;
  w.runtime_n = a.n;
  if constexpr (W::kHeaded) {
    w.lin = setup.lin;
    w.constant = setup.constant;
    w.head_bits = a.head_bits;
  }
  RunGeometry g;
  g.n = a.n;
  g.q = a.q;
  g.heap_steps = a.heap_steps;
  g.heap = heap;
  if constexpr (kStats) {
    StatsVisit<A> visit{sink.stats};
    walk_run(w, g, WholeRun{run_bounds(a, unit)}, visit);
  } else {
    auto visit = [&](const W& x) {
      sink.take(x.cost, [&x] { return sweep_key(x); },
                [&x, &a] { return a.head_first + index_of_code(x.placement_code(), x.n()); });
    };
    walk_run(w, g, run_bounds(a, unit), visit);
  }
}

// kStats: a.pass is Pass::Stats and no range end cuts the runs (the sweep's main pass gets a loop of its own;
// topo_cuda.cu launches it for ExactFloat). Its registers are capped at 128 so that 4 blocks of 128 threads fit
// an SM, as for the other float kernels (uncapped it takes 164: 3 blocks); the cap spills nothing inside the
// loop over placements (PERF.md). 255 is no cap. Headed: the walk of one head's tail (a.lin set).
template <class A, int N, bool kStats, bool Headed = false>
__global__ void __maxnreg__(kStats ? 128 : 255) walk_kernel(const __grid_constant__ PassArgs<typename A::Value> a) {
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ std::uint8_t heap[128];
  for (int k = threadIdx.x; k < a.heap_steps; k += blockDim.x) heap[k] = a.heap[k];
  Sink<A> sink{a};
  const BlockSetup<A> setup = setup_block<A, Headed>(a, smem, sink);  // synchronises
  if (a.q + kSuffixSlots == a.n) {
    SuffixWalker<A, N, Headed> w;
    w.coefficients = setup.coefficients;
    walk_unit<A, kStats>(a, setup, heap, sink, w);
  } else {
    Walker<A, N, Headed> w;
    walk_unit<A, kStats>(a, setup, heap, sink, w);
  }
  finish_block<A>(sink, setup.scratch, a);
}

template <class A>
__global__ void item_kernel(const __grid_constant__ PassArgs<typename A::Value> a) {
  extern __shared__ __align__(16) unsigned char smem[];
  Sink<A> sink{a};
  const BlockSetup<A> setup = setup_block<A>(a, smem, sink);
  const std::uint64_t unit = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (unit < a.units) {
    const std::uint64_t item = a.unit0 + unit;
    std::uint8_t placement[kMaxListedNodes];
    std::uint64_t key = item;
    const std::uint8_t* pl = placement;
    if (a.mode == PlacementMode::All) {
      key = a.keys.key_of_index(item, placement);
    } else if (a.mode == PlacementMode::Sample) {
      SplitMix64 rng = sample_stream(a.seed, item);
      random_placement(rng, placement, a.n);
    } else {
      pl = a.listed + item * std::uint64_t(a.n);
    }
    sink.take(cost_of_placement<A>(setup.traffic, setup.cost, pl, a.n), [key] { return key; }, [item] { return item; });
  }
  finish_block<A>(sink, setup.scratch, a);
}

// partial[block row][block] -> out[pair], blocks merged in order.
__global__ void reduce_stats(const RawStats* partial, int blocks, int rows, int slice0, int configs, bool exact,
                             RawStats* out) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  RawStats total;
  for (int b = 0; b < blocks; ++b) merge_raw(total, partial[std::size_t(row) * blocks + b], exact);
  out[slice0 * configs + row] = total;
}

}  // namespace ks::topo::cuda
