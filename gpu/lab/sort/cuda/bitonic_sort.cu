// Bitonic sort. The network on 2^m elements: for every merge size k = 2, 4, ..., 2^m and every stride
// j = k/2, ..., 1, element i is compared with i ^ j and the pair is put in ascending order when bit k of i is
// clear, descending otherwise. The comparisons do not depend on the data, which is what makes it a good first
// GPU sort, and also why it is not stable.
//
// Three kernels run that network, each step where it is cheapest:
//  - sort_blocks: a block of 512 threads holds 4096 elements, 8 per thread in registers, and runs every step
//    with k <= 4096;
//  - global_steps: for k > 4096 the strides j >= 4096 cross blocks; each thread owns 2^R elements whose
//  indices
//    differ in R consecutive bits and runs those R strides in registers: one pass over memory for up to 6
//    strides (5 for pairs) instead of one pass each;
//  - merge_blocks: the strides j < 4096 of a merge, in a block as in sort_blocks.
// Inside a block, thread t holds the elements whose index is t with 3 bits inserted at bit L (the "layout"
// L): strides 2^L .. 2^(L+2) are then compare-exchanges between its own registers; strides below 32 are
// between lanes of a warp (L >= 5 keeps the lane in the index's low 5 bits), done with warp shuffles; any
// other stride first moves the elements to a layout that holds it, through shared memory (the only place with
// __syncthreads). A merge in a block costs two such moves instead of twelve shared-memory steps. For 2^24
// keys that is 1 + 18 + 12 = 31 passes over the data instead of 300 compare-exchange steps.
#include <algorithm>
#include <bit>
#include <limits>

#include "core/cuda/check.cuh"
#include "lab/sort/cuda/bitonic_sort.cuh"

namespace ks::lab::cuda {

namespace {

constexpr int kThreads = kBitonicThreads;
constexpr int kThreadBits = 9;  // 512 threads
constexpr int kLogBlockElems = 12;
constexpr int kBlockElems = 1 << kLogBlockElems;
constexpr int kGroupBits = 3;  // 8 elements per thread
constexpr int kGroup = 1 << kGroupBits;
constexpr int kLaneBits = 5;
constexpr int kGlobalThreads = 128;  // R = 6 takes ~250 registers: small blocks keep two per SM
constexpr unsigned kFullWarp = 0xffffffffu;
static_assert(kBlockElems == kBitonicBlockElems && (kThreads << kGroupBits) == kBlockElems &&
              (1 << kThreadBits) == kThreads);

// Strides per global pass: 2^R elements per thread in registers.
template <class T>
constexpr int max_register_steps() {
  return sizeof(T) == 4 ? 6 : 5;
}

template <class T>
__device__ __forceinline__ void compare_exchange(T& a, T& b, bool ascending) {
  if ((a > b) == ascending) {
    const T t = a;
    a = b;
    b = t;
  }
}

// Index in the block of element m of thread t in layout L: t with the 3 bits of m inserted at bit L.
__device__ __forceinline__ int layout_index(int t, int layout, int m) {
  const int low = t & ((1 << layout) - 1);
  return ((t >> layout) << (layout + kGroupBits)) | (m << layout) | low;
}

// The registers of one thread: its 8 elements and the layout they are in.
template <class T>
struct Group {
  T v[kGroup];
  int layout;
};

// Moves the block's elements to another layout through shared memory. Each thread stores only the positions
// it loaded in the previous move (and loads only positions of its own), so one barrier suffices.
template <class T>
__device__ void relayout(Group<T>& g, int layout, T* s) {
  const int t = int(threadIdx.x);
#pragma unroll
  for (int m = 0; m < kGroup; ++m) s[layout_index(t, g.layout, m)] = g.v[m];
  __syncthreads();
#pragma unroll
  for (int m = 0; m < kGroup; ++m) g.v[m] = s[layout_index(t, layout, m)];
  g.layout = layout;
}

// Stride 2^(layout + S): between the thread's registers m and m + 2^S.
template <class T, int S>
__device__ void register_step(Group<T>& g, std::size_t base, std::size_t k) {
  const int t = int(threadIdx.x);
#pragma unroll
  for (int m = 0; m < kGroup; ++m)
    if ((m & (1 << S)) == 0)
      compare_exchange(g.v[m], g.v[m | (1 << S)],
                       ((base + std::size_t(layout_index(t, g.layout, m))) & k) == 0);
}

// Stride 2^b < 32: between lanes of the warp (the lane is the index's low 5 bits in every layout used here).
// Each lane keeps the smaller or the larger of its value and its partner's.
template <class T>
__device__ void shuffle_step(Group<T>& g, std::size_t base, std::size_t k, int b) {
  const int t = int(threadIdx.x), j = 1 << b;
#pragma unroll
  for (int m = 0; m < kGroup; ++m) {
    const int i = layout_index(t, g.layout, m);
    const T other = __shfl_xor_sync(kFullWarp, g.v[m], j);
    const bool lower = (i & j) == 0;
    const bool ascending = ((base + std::size_t(i & ~j)) & k) == 0;
    const T low = g.v[m] < other ? g.v[m] : other, high = g.v[m] < other ? other : g.v[m];
    g.v[m] = lower == ascending ? low : high;
  }
}

// Strides 2^top, ..., 1 of merge size k on the block's elements (base: the global index of the block's
// first).
template <class T>
__device__ void block_steps(Group<T>& g, T* s, std::size_t base, std::size_t k, int top) {
  for (int b = top; b >= 0; --b) {
    if (b < kLaneBits) {
      shuffle_step(g, base, k, b);
      continue;
    }
    const int lowest = b - (kGroupBits - 1);  // the layout that holds strides b, b - 1, b - 2 in registers
    if (b < g.layout || b > g.layout + kGroupBits - 1)
      relayout(g, lowest > kLaneBits ? lowest : kLaneBits, s);
    switch (b - g.layout) {
      case 0:
        register_step<T, 0>(g, base, k);
        break;
      case 1:
        register_step<T, 1>(g, base, k);
        break;
      default:
        register_step<T, 2>(g, base, k);
        break;
    }
  }
}

// The block's elements into registers in layout 9 (element m of thread t is t + 512 m: coalesced); positions
// at or past `elems` (a block smaller than 4096) hold the largest value and pair only with each other.
template <class T>
__device__ Group<T> load_group(const T* data, std::size_t base, int elems) {
  Group<T> g;
  g.layout = kThreadBits;
#pragma unroll
  for (int m = 0; m < kGroup; ++m) {
    const int i = layout_index(int(threadIdx.x), g.layout, m);
    g.v[m] = i < elems ? data[base + std::size_t(i)] : std::numeric_limits<T>::max();
  }
  return g;
}

// Stores from whatever layout the steps ended in; every layout used keeps lanes on consecutive indices.
template <class T>
__device__ void store_group(const Group<T>& g, T* data, std::size_t base, int elems) {
#pragma unroll
  for (int m = 0; m < kGroup; ++m) {
    const int i = layout_index(int(threadIdx.x), g.layout, m);
    if (i < elems) data[base + std::size_t(i)] = g.v[m];
  }
}

template <class T>
__global__ void __launch_bounds__(kThreads) sort_blocks_kernel(T* data, int elems) {
  __shared__ T s[kBlockElems];
  const std::size_t base = std::size_t(blockIdx.x) * std::size_t(elems);
  Group<T> g = load_group(data, base, elems);
  // log2 of k counted here: std::countr_zero is a host builtin, which device code got wrong (32 for every k:
  // the H100 reported an illegal instruction, 2026-11-24).
  for (int log_k = 1; (1 << log_k) <= elems; ++log_k)
    block_steps(g, s, base, std::size_t(1) << log_k, log_k - 1);
  store_group(g, data, base, elems);
}

template <class T>
__global__ void __launch_bounds__(kThreads) merge_blocks_kernel(T* data, std::size_t k) {
  __shared__ T s[kBlockElems];
  const std::size_t base = std::size_t(blockIdx.x) * kBlockElems;
  Group<T> g = load_group(data, base, kBlockElems);
  block_steps(g, s, base, k, kLogBlockElems - 1);
  store_group(g, data, base, kBlockElems);
}

// Strides 2^(low + R - 1), ..., 2^low of merge size k. Thread t owns the 2^R elements whose index is t with R
// bits (all values) inserted at bit `low`; the bits below `low` come from t's low bits, so neighbouring
// threads read neighbouring addresses (low >= 12 here).
template <class T, int R>
__global__ void __launch_bounds__(kGlobalThreads)
    global_steps_kernel(T* data, std::size_t count, std::size_t k, int low) {
  const std::size_t t = std::size_t(blockIdx.x) * kGlobalThreads + threadIdx.x;
  if (t >= (count >> R)) return;
  const std::size_t low_mask = (std::size_t(1) << low) - 1;
  const std::size_t base = ((t & ~low_mask) << R) | (t & low_mask);
  const bool ascending = (base & k) == 0;  // bit k lies above the R bits, so it is the same for all 2^R
  T v[1 << R];
#pragma unroll
  for (int m = 0; m < (1 << R); ++m) v[m] = data[base + (std::size_t(m) << low)];
#pragma unroll
  for (int s = R - 1; s >= 0; --s)
#pragma unroll
    for (int m = 0; m < (1 << R); ++m)
      if ((m & (1 << s)) == 0) compare_exchange(v[m], v[m | (1 << s)], ascending);
#pragma unroll
  for (int m = 0; m < (1 << R); ++m) data[base + (std::size_t(m) << low)] = v[m];
}

template <class T, int R>
void launch_global_steps(T* data, std::size_t count, std::size_t k, int low, cudaStream_t s) {
  if constexpr (R <= max_register_steps<T>()) {
    const std::size_t threads = count >> R;
    const unsigned blocks = unsigned((threads + kGlobalThreads - 1) / kGlobalThreads);
    global_steps_kernel<T, R><<<blocks, kGlobalThreads, 0, s>>>(data, count, k, low);
    ks::cuda::check_launch("bitonic global_steps");
  }
}

template <class T>
void global_steps(T* data, std::size_t count, std::size_t k, int low, int r, cudaStream_t s) {
  switch (r) {
    case 1:
      launch_global_steps<T, 1>(data, count, k, low, s);
      break;
    case 2:
      launch_global_steps<T, 2>(data, count, k, low, s);
      break;
    case 3:
      launch_global_steps<T, 3>(data, count, k, low, s);
      break;
    case 4:
      launch_global_steps<T, 4>(data, count, k, low, s);
      break;
    case 5:
      launch_global_steps<T, 5>(data, count, k, low, s);
      break;
    default:
      launch_global_steps<T, 6>(data, count, k, low, s);
      break;
  }
}

}  // namespace

const void* bitonic_merge_kernel(bool pairs) {
  return pairs ? reinterpret_cast<const void*>(&merge_blocks_kernel<std::uint64_t>)
               : reinterpret_cast<const void*>(&merge_blocks_kernel<std::uint32_t>);
}

template <class T>
void bitonic_sort_pow2(T* data, std::size_t count, cudaStream_t s) {
  if (count < 2) return;
  const int elems = int(std::min<std::size_t>(count, kBlockElems));
  sort_blocks_kernel<T><<<unsigned(count / std::size_t(elems)), kThreads, 0, s>>>(data, elems);
  ks::cuda::check_launch("bitonic sort_blocks");
  for (std::size_t k = 2 * std::size_t(kBlockElems); k <= count; k *= 2) {
    // Strides k/2 down to kBlockElems cross blocks: passes of up to max_register_steps strides each.
    for (int top = std::countr_zero(k) - 1; top >= kLogBlockElems;) {
      const int r = std::min(max_register_steps<T>(), top - kLogBlockElems + 1);
      global_steps(data, count, k, top - r + 1, r, s);
      top -= r;
    }
    merge_blocks_kernel<T><<<unsigned(count / kBlockElems), kThreads, 0, s>>>(data, k);
    ks::cuda::check_launch("bitonic merge_blocks");
  }
}

template void bitonic_sort_pow2<std::uint32_t>(std::uint32_t*, std::size_t, cudaStream_t);
template void bitonic_sort_pow2<std::uint64_t>(std::uint64_t*, std::size_t, cudaStream_t);

}  // namespace ks::lab::cuda
