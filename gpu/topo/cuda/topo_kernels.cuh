#pragma once
// The CUDA kernels of the topology sweep. Two shapes of thread, one set of reductions:
//   walk_kernel  ("delta") a thread walks one run of the sweep plan (sweep_core.hpp: the first placement
//   decoded
//                from its index, then one swap and an O(n) delta per placement) for a tile of TT slices x CC
//                configurations; the block's tile of traffic and path costs sits in shared memory.
//   item_kernel  ("naive", samples, given placements) a thread evaluates whole placements, each from the
//                definition, for one (slice, configuration); placements come from their index, a sample
//                number or a list.
// Reductions, by pass: Stats (per thread RunningStats, merged across the block in thread order, then across
// blocks in block order by reduce_stats: deterministic), Histogram (shared-memory counts, then global
// atomics: integers, order-free), Top (every cost within the given bin of its configuration is appended to a
// candidate list), Cube (every cost written at its placement's row).
#include <cstdint>

#include "topo/random.hpp"
#include "topo/sweep_backend.hpp"
#include "topo/sweep_core.hpp"

namespace ks::topo::cuda {

// What every launch of a pass takes (by value: kernel parameters).
template <class V>
struct PassArgs {
  const V* traffic = nullptr;  // [slice][n][n]
  const V* cost = nullptr;     // [config][n][n]
  int n = 0;
  int slice0 = 0, slices = 0;  // the slices this pass covers: slice0 .. slice0 + slices - 1
  int configs = 0;             // all configurations
  int tiles_c = 1;             // tiles along the configurations (tile y = ts * tiles_c + tc)
  int all_configs = 0;         // the problem's configurations (pair = slice * all_configs + config)
  Pass pass = Pass::Stats;
  // Walk: runs [unit0, unit0 + units) of the plan.
  std::uint64_t unit0 = 0, units = 0;
  int q = 0, heap_steps = 0;
  std::uint8_t heap[119] = {};
  std::uint64_t run_size = 0, block_size = 0, total = 0, lo = 0, hi = 0, lo_code = 0, hi_code = 0;
  // Items: item0 .. item0 + units - 1; mode All: placement indices, Sample: sample numbers, Given: list rows.
  PlacementMode mode = PlacementMode::All;
  std::uint64_t seed = 0;
  const std::uint8_t* listed = nullptr;
  // Outputs.
  RawStats* partial = nullptr;           // Stats: [tile][block x][TT * CC]
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

// What a thread does with one cost: the pass's reduction. TT x CC pairs per thread.
template <class A, int TT, int CC>
struct Sink {
  using V = typename A::Value;
  const PassArgs<V>& a;
  int slice_base, config_base;  // of this thread's tile
  RunningStats<A> stats[TT][CC];
  unsigned* block_counts;     // shared: [TT * CC][64]
  const HistogramBins* bins;  // [TT * CC], in shared memory

  __device__ bool valid(int t, int c) const {
    return slice_base + t < a.slice0 + a.slices && config_base + c < a.configs;
  }
  __device__ int pair(int t, int c) const { return (slice_base + t) * a.all_configs + config_base + c; }

  __device__ __forceinline__ void take(int t, int c, V v, std::uint64_t key, std::uint64_t row) {
    switch (a.pass) {
      case Pass::Stats:
        stats[t][c].add(v, key);
        break;
      case Pass::Histogram:
        atomicAdd(&block_counts[(t * CC + c) * kHistogramBins + bin_of<A>(v, bins[t * CC + c])], 1u);
        break;
      case Pass::Top:
        if (bin_of<A>(v, bins[t * CC + c]) <= a.top_bin[config_base + c]) {
          const unsigned long long at = atomicAdd(a.top_count, 1ull);
          if (at < a.top_capacity) {
            Candidate k;
            if constexpr (A::exact)
              k.cost_i = A::to_int(v);
            else
              k.cost_d = v;
            k.key = key;
            k.configuration = config_base + c;
            a.top[at] = k;
          }
        }
        break;
      case Pass::Cube: {
        const std::size_t at =
            std::size_t(row - a.cube_first) * std::size_t(a.pairs) + std::size_t(pair(t, c));
        if constexpr (A::exact)
          a.cube_i[at] = A::to_int(v);
        else
          a.cube_d[at] = v;
        break;
      }
    }
  }
};

// Block-wide merge of each pair's stats in thread order (deterministic), written to
// partial[tile][block][pair].
template <class A, int TT, int CC>
__device__ void finish_block(Sink<A, TT, CC>& sink, RawStats* scratch, const PassArgs<typename A::Value>& a) {
  const int tid = threadIdx.x;
  const int tile = blockIdx.y;
  if (a.pass == Pass::Stats) {
    for (int t = 0; t < TT; ++t)
      for (int c = 0; c < CC; ++c) {
        to_raw(sink.stats[t][c], scratch[tid]);
        __syncthreads();
        for (int stride = 1; stride < blockDim.x; stride *= 2) {
          if (tid % (2 * stride) == 0 && tid + stride < blockDim.x)
            merge_raw(scratch[tid], scratch[tid + stride], A::exact);
          __syncthreads();
        }
        if (tid == 0)
          a.partial[(std::size_t(tile) * gridDim.x + blockIdx.x) * (TT * CC) + std::size_t(t * CC + c)] =
              scratch[0];
        __syncthreads();
      }
  } else if (a.pass == Pass::Histogram) {
    __syncthreads();
    for (int k = tid; k < TT * CC * kHistogramBins; k += blockDim.x) {
      const int t = k / (CC * kHistogramBins), c = (k / kHistogramBins) % CC;
      const unsigned v = sink.block_counts[k];
      if (v && sink.valid(t, c))
        atomicAdd(&a.counts[std::size_t(sink.pair(t, c)) * kHistogramBins + k % kHistogramBins],
                  (unsigned long long)v);
    }
  }
}

// Shared memory of a block: its tile's matrices, bins and counts, then the reduction scratch.
template <class V, int TT, int CC>
struct SharedLayout {
  static __host__ __device__ std::size_t matrices(int n) {
    return std::size_t(TT + CC) * std::size_t(n * n) * sizeof(V);
  }
  static __host__ __device__ std::size_t bytes(int n, int threads) {
    return matrices(n) + TT * CC * sizeof(HistogramBins) + TT * CC * kHistogramBins * sizeof(unsigned) +
           std::size_t(threads) * sizeof(RawStats) + 128;
  }
};

// Loads the block's tile into shared memory and sets up the sink; returns the tile's matrices.
template <class A, int TT, int CC>
__device__ void setup_block(const PassArgs<typename A::Value>& a, unsigned char* smem, Sink<A, TT, CC>& sink,
                            const typename A::Value** traffic, const typename A::Value** cost,
                            RawStats** scratch) {
  using V = typename A::Value;
  const int nn = a.n * a.n;
  const int tile = blockIdx.y;
  sink.slice_base = a.slice0 + (tile / a.tiles_c) * TT;
  sink.config_base = (tile % a.tiles_c) * CC;
  V* m = reinterpret_cast<V*>(smem);
  for (int t = 0; t < TT; ++t) {
    const int s = min(sink.slice_base + t, a.slice0 + a.slices - 1);  // padding repeats the last slice
    for (int k = threadIdx.x; k < nn; k += blockDim.x) m[t * nn + k] = a.traffic[std::size_t(s) * nn + k];
    traffic[t] = m + t * nn;
  }
  for (int c = 0; c < CC; ++c) {
    const int cc = min(sink.config_base + c, a.configs - 1);
    for (int k = threadIdx.x; k < nn; k += blockDim.x)
      m[(TT + c) * nn + k] = a.cost[std::size_t(cc) * nn + k];
    cost[c] = m + (TT + c) * nn;
  }
  unsigned char* p = smem + SharedLayout<V, TT, CC>::matrices(a.n);
  p = reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(p) + 15) & ~std::uintptr_t(15));
  HistogramBins* bins = reinterpret_cast<HistogramBins*>(p);
  p += TT * CC * sizeof(HistogramBins);
  unsigned* counts = reinterpret_cast<unsigned*>(p);
  p += TT * CC * kHistogramBins * sizeof(unsigned);
  p = reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(p) + 15) & ~std::uintptr_t(15));
  *scratch = reinterpret_cast<RawStats*>(p);
  if (a.bins && threadIdx.x < TT * CC) {
    const int t = threadIdx.x / CC, c = threadIdx.x % CC;
    const int s = min(sink.slice_base + t, a.slice0 + a.slices - 1),
              cc = min(sink.config_base + c, a.configs - 1);
    bins[threadIdx.x] = a.bins[s * a.all_configs + cc];
  }
  for (int k = threadIdx.x; k < TT * CC * kHistogramBins; k += blockDim.x) counts[k] = 0;
  sink.bins = bins;
  sink.block_counts = counts;
  __syncthreads();
}

template <class A, int N, int TT, int CC>
__global__ void walk_kernel(const __grid_constant__ PassArgs<typename A::Value> a) {
  extern __shared__ __align__(16) unsigned char smem[];
  Sink<A, TT, CC> sink{a};
  TileWalker<A, N, TT, CC> w;
  RawStats* scratch = nullptr;
  __shared__ std::uint8_t heap[128];
  for (int k = threadIdx.x; k < a.heap_steps; k += blockDim.x) heap[k] = a.heap[k];
  setup_block<A, TT, CC>(a, smem, sink, w.traffic, w.cost_of, &scratch);  // synchronises
  w.runtime_n = a.n;

  const std::uint64_t unit = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (unit < a.units) {
    const std::uint64_t r = a.unit0 + unit;
    RunBounds b;
    b.first_index = r * a.run_size;
    const std::uint64_t end = b.first_index + a.run_size < a.total ? b.first_index + a.run_size : a.total;
    b.blocks = (end - b.first_index) / a.block_size;
    b.masked = b.first_index < a.lo || end > a.hi;
    b.lo_code = a.lo_code;
    b.hi_open = a.hi == a.total;
    b.hi_code = a.hi_code;
    RunGeometry g;
    g.n = a.n;
    g.q = a.q;
    g.heap_steps = a.heap_steps;
    g.heap = heap;
    bool ok[TT][CC];
    for (int t = 0; t < TT; ++t)
      for (int c = 0; c < CC; ++c) ok[t][c] = sink.valid(t, c);
    auto visit = [&](const TileWalker<A, N, TT, CC>& x) {
      const std::uint64_t row = a.pass == Pass::Cube ? index_of_code(x.code, a.n) : 0;
      for (int t = 0; t < TT; ++t)
        for (int c = 0; c < CC; ++c)
          if (ok[t][c]) sink.take(t, c, x.cost[t][c], x.code, row);
    };
    walk_run(w, g, b, visit);
  }
  finish_block<A, TT, CC>(sink, scratch, a);
}

template <class A>
__global__ void item_kernel(const __grid_constant__ PassArgs<typename A::Value> a) {
  extern __shared__ __align__(16) unsigned char smem[];
  using V = typename A::Value;
  Sink<A, 1, 1> sink{a};
  const V* traffic[1];
  const V* cost[1];
  RawStats* scratch = nullptr;
  setup_block<A, 1, 1>(a, smem, sink, traffic, cost, &scratch);
  const std::uint64_t unit = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (unit < a.units && sink.valid(0, 0)) {
    const std::uint64_t item = a.unit0 + unit;
    std::uint8_t placement[kMaxEnumeratedNodes];
    std::uint64_t key = item;
    const std::uint8_t* pl = placement;
    if (a.mode == PlacementMode::All) {
      key = code_of_index(item, a.n);
      for (int i = 0; i < a.n; ++i) placement[i] = std::uint8_t(node_at(key, i));
    } else if (a.mode == PlacementMode::Sample) {
      SplitMix64 rng = sample_stream(a.seed, item);
      random_placement(rng, placement, a.n);
    } else {
      pl = a.listed + item * std::uint64_t(a.n);
    }
    sink.take(0, 0, cost_of_placement<A>(traffic[0], cost[0], pl, a.n), key, item);
  }
  finish_block<A, 1, 1>(sink, scratch, a);
}

// partial[tile][block][k] -> out[pair], blocks merged in order.
__global__ void reduce_stats(const RawStats* partial, int blocks, int tiles, int tiles_c, int per_tile_t,
                             int per_tile_c, int slice0, int slices, int configs, int all_configs, bool exact,
                             RawStats* out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= tiles * per_tile_t * per_tile_c) return;
  const int tile = k / (per_tile_t * per_tile_c), in_tile = k % (per_tile_t * per_tile_c);
  const int s = slice0 + (tile / tiles_c) * per_tile_t + in_tile / per_tile_c;
  const int c = (tile % tiles_c) * per_tile_c + in_tile % per_tile_c;
  if (s >= slice0 + slices || c >= configs) return;
  RawStats total;
  for (int b = 0; b < blocks; ++b)
    merge_raw(total, partial[(std::size_t(tile) * blocks + b) * (per_tile_t * per_tile_c) + in_tile], exact);
  out[s * all_configs + c] = total;
}

}  // namespace ks::topo::cuda
