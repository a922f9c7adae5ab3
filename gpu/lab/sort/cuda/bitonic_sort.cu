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

// The network inside a block is unrolled at compile time: every step's stride, the layout the elements are in
// and, where it depends on the element, the merge direction are template arguments, so the index arithmetic
// folds into constants and one value per thread. (With these computed at run time, in 64 bits, the block
// kernels were compute-bound at ~23 instructions per element and step; docs/PERF.md.)
//
// Merge sizes 2^LogK with LogK >= kUniformLogK give every element of a block the same direction (the block's
// own, passed at run time): the last merge inside sort_blocks and every merge of merge_blocks.
constexpr int kUniformLogK = kLogBlockElems;

// Thread t's part of the index of its elements in layout L: t with a 3-bit gap at bit L (element m fills it).
template <int L>
__device__ __forceinline__ int layout_base(int t) {
  return ((t >> L) << (L + kGroupBits)) | (t & ((1 << L) - 1));
}

// Whether the element at block index i is merged in descending order for merge size 2^LogK.
template <int LogK>
__device__ __forceinline__ bool descending(int i, bool block_descending) {
  if constexpr (LogK >= kUniformLogK)
    return block_descending;
  else
    return (i >> LogK) & 1;
}

// The layout a step of stride 2^B runs in, coming from layout L: strides below 32 run between lanes in any
// layout; others need 2^B among the thread's own three bits, else move to the lowest layout that holds B.
constexpr int layout_for(int L, int B) {
  if (B < kLaneBits || (B >= L && B <= L + kGroupBits - 1)) return L;
  return B - (kGroupBits - 1) > kLaneBits ? B - (kGroupBits - 1) : kLaneBits;
}

// The layout after the steps of merge sizes 2^FirstLogK .. 2^LastLogK (strides 2^FirstB .. 1 for the first,
// 2^(LogK - 1) .. 1 for the others), starting from layout L.
constexpr int layout_after(int L, int first_log_k, int first_b, int last_log_k) {
  for (int log_k = first_log_k; log_k <= last_log_k; ++log_k)
    for (int b = log_k == first_log_k ? first_b : log_k - 1; b >= 0; --b) L = layout_for(L, b);
  return L;
}

// Moves the block's elements from layout From to layout To through shared memory. Each thread stores only the
// positions it loaded in the previous move (and loads only positions of its own), so one barrier suffices.
template <class T, int From, int To>
__device__ __forceinline__ void relayout(T (&v)[kGroup], T* s, int t) {
  const int from = layout_base<From>(t), to = layout_base<To>(t);
#pragma unroll
  for (int m = 0; m < kGroup; ++m) s[from | (m << From)] = v[m];
  __syncthreads();
#pragma unroll
  for (int m = 0; m < kGroup; ++m) v[m] = s[to | (m << To)];
}

// Stride 2^(L + S): between the thread's registers m and m + 2^S.
template <class T, int LogK, int L, int S>
__device__ __forceinline__ void register_step(T (&v)[kGroup], int t, bool block_descending) {
  const int base = layout_base<L>(t);
#pragma unroll
  for (int m = 0; m < kGroup; ++m)
    if ((m & (1 << S)) == 0) {
      const bool down = descending<LogK>(base | (m << L), block_descending);
      T& a = v[m];
      T& b = v[m | (1 << S)];
      const T low = a < b ? a : b, high = a < b ? b : a;
      a = down ? high : low;
      b = down ? low : high;
    }
}

// Stride 2^B < 32: between lanes of the warp (every layout keeps the lane in the index's low 5 bits). Each lane
// keeps the smaller or the larger of its value and its partner's.
template <class T, int LogK, int L, int B>
__device__ __forceinline__ void shuffle_step(T (&v)[kGroup], int t, bool block_descending) {
  const int base = layout_base<L>(t);
  const bool lower = (t & (1 << B)) == 0;
#pragma unroll
  for (int m = 0; m < kGroup; ++m) {
    const T other = __shfl_xor_sync(kFullWarp, v[m], 1 << B);
    const bool keep_low = lower != descending<LogK>(base | (m << L), block_descending);
    const T low = v[m] < other ? v[m] : other, high = v[m] < other ? other : v[m];
    v[m] = keep_low ? low : high;
  }
}

// Stride 2^B of merge size 2^LogK, then the rest of that merge and the merges up to 2^LastLogK; the elements
// are in layout L.
template <class T, int LogK, int B, int L, int LastLogK>
__device__ __forceinline__ void network(T (&v)[kGroup], T* s, int t, bool block_descending) {
  constexpr int NL = layout_for(L, B);
  if constexpr (B < kLaneBits) {
    shuffle_step<T, LogK, L, B>(v, t, block_descending);
  } else {
    if constexpr (NL != L) relayout<T, L, NL>(v, s, t);
    register_step<T, LogK, NL, B - NL>(v, t, block_descending);
  }
  if constexpr (B > 0)
    network<T, LogK, B - 1, NL, LastLogK>(v, s, t, block_descending);
  else if constexpr (LogK < LastLogK)
    network<T, LogK + 1, LogK, NL, LastLogK>(v, s, t, block_descending);
}

// The block's elements into registers in layout 9 (element m of thread t is t + 512 m: coalesced); positions
// at or past `elems` (a single block of fewer than 4096) hold the largest value: they sort last.
constexpr int kLoadLayout = kThreadBits;

template <class T>
__device__ __forceinline__ void load_block(T (&v)[kGroup], const T* data, std::size_t base, int elems, int t) {
#pragma unroll
  for (int m = 0; m < kGroup; ++m) {
    const int i = layout_base<kLoadLayout>(t) | (m << kLoadLayout);
    v[m] = i < elems ? data[base + std::size_t(i)] : std::numeric_limits<T>::max();
  }
}

// Stores from layout L; every layout used keeps lanes on consecutive indices.
template <class T, int L>
__device__ __forceinline__ void store_block(const T (&v)[kGroup], T* data, std::size_t base, int elems, int t) {
#pragma unroll
  for (int m = 0; m < kGroup; ++m) {
    const int i = layout_base<L>(t) | (m << L);
    if (i < elems) data[base + std::size_t(i)] = v[m];
  }
}

// Every merge up to 2^12 on the block's 4096 elements (a single block of fewer is padded, see load_block).
// Blocks alternate direction at the last merge, so that pairs of neighbours form the bitonic sequences of the
// first global merge.
template <class T>
__global__ void __launch_bounds__(kThreads) sort_blocks_kernel(T* data, int elems) {
  __shared__ T s[kBlockElems];
  const int t = int(threadIdx.x);
  const std::size_t base = std::size_t(blockIdx.x) * kBlockElems;
  T v[kGroup];
  load_block(v, data, base, elems, t);
  network<T, 1, 0, kLoadLayout, kLogBlockElems>(v, s, t, (blockIdx.x & 1) != 0);
  store_block<T, layout_after(kLoadLayout, 1, 0, kLogBlockElems)>(v, data, base, elems, t);
}

// Strides 2^11 .. 1 of a merge of size k > 4096: one direction for the whole block.
template <class T>
__global__ void __launch_bounds__(kThreads) merge_blocks_kernel(T* data, std::size_t k) {
  __shared__ T s[kBlockElems];
  const int t = int(threadIdx.x);
  const std::size_t base = std::size_t(blockIdx.x) * kBlockElems;
  T v[kGroup];
  load_block(v, data, base, int(kBlockElems), t);
  constexpr int top = kLogBlockElems - 1;
  network<T, kUniformLogK, top, kLoadLayout, kUniformLogK>(v, s, t, (base & k) != 0);
  store_block<T, layout_after(kLoadLayout, kUniformLogK, top, kUniformLogK)>(v, data, base, int(kBlockElems), t);
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
  sort_blocks_kernel<T><<<unsigned((count + kBlockElems - 1) / kBlockElems), kThreads, 0, s>>>(data, elems);
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
