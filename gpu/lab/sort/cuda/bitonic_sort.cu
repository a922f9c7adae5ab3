// Bitonic sort. The network on 2^m elements: for every merge size k = 2, 4, ..., 2^m and every stride
// j = k/2, ..., 1, element i is compared with i ^ j and the pair is put in ascending order when bit k of i is
// clear, descending otherwise. The comparisons do not depend on the data, which is what makes it a good first
// GPU sort, and also why it is not stable.
//
// Three kernels run that network:
//  - sort_blocks: each block loads 4096 elements into shared memory and runs every step with k <= 4096;
//  - global_steps: for k > 4096, the strides j >= 4096 cross blocks; each thread owns 2^R elements whose
//    indices differ in R consecutive bits and runs R strides on them in registers (one pass over memory for
//    up to four strides instead of one pass each);
//  - merge_blocks: the strides j < 4096 of a merge, again in shared memory.
// For 2^24 keys that is 1 + 24 + 12 = 37 passes over the data instead of 300 compare-exchange steps.
#include <algorithm>
#include <bit>

#include "core/cuda/check.cuh"
#include "lab/sort/cuda/bitonic_sort.cuh"

namespace ks::lab::cuda {

namespace {

constexpr int kThreads = kBitonicThreads;
constexpr int kLogBlockElems = 12;
constexpr int kBlockElems = 1 << kLogBlockElems;  // 8 per thread; 32 KB of shared memory for u64
static_assert(kBlockElems == kBitonicBlockElems);
constexpr int kGlobalThreads = 256;
constexpr int kMaxRegisterSteps = 4;  // 16 elements per thread in registers

template <class T>
__device__ __forceinline__ void compare_exchange(T& a, T& b, bool ascending) {
  if ((a > b) == ascending) {
    const T t = a;
    a = b;
    b = t;
  }
}

// Strides j_first, j_first/2, ..., 1 of merge size k on the `elems` elements of this block in shared memory;
// `base` is the global index of s[0], which decides each pair's direction.
template <class T>
__device__ void shared_steps(T* s, int elems, std::size_t base, std::size_t k, int j_first) {
  for (int j = j_first; j > 0; j /= 2) {
    for (int p = int(threadIdx.x); p < elems / 2; p += kThreads) {
      const int i = 2 * p - (p & (j - 1));  // the lower index of pair p: bit j of i is clear
      compare_exchange(s[i], s[i + j], ((base + std::size_t(i)) & k) == 0);
    }
    __syncthreads();
  }
}

template <class T>
__device__ void load_block(const T* data, T* s, int elems, std::size_t base) {
  for (int i = int(threadIdx.x); i < elems; i += kThreads) s[i] = data[base + std::size_t(i)];
  __syncthreads();
}

template <class T>
__device__ void store_block(T* data, const T* s, int elems, std::size_t base) {
  for (int i = int(threadIdx.x); i < elems; i += kThreads) data[base + std::size_t(i)] = s[i];
}

template <class T>
__global__ void __launch_bounds__(kThreads) sort_blocks_kernel(T* data, int elems) {
  __shared__ T s[kBlockElems];
  const std::size_t base = std::size_t(blockIdx.x) * std::size_t(elems);
  load_block(data, s, elems, base);
  for (int k = 2; k <= elems; k *= 2) shared_steps(s, elems, base, std::size_t(k), k / 2);
  store_block(data, s, elems, base);
}

template <class T>
__global__ void __launch_bounds__(kThreads) merge_blocks_kernel(T* data, std::size_t k) {
  __shared__ T s[kBlockElems];
  const std::size_t base = std::size_t(blockIdx.x) * kBlockElems;
  load_block(data, s, kBlockElems, base);
  shared_steps(s, kBlockElems, base, k, kBlockElems / 2);
  store_block(data, s, kBlockElems, base);
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
  const std::size_t threads = count >> R;
  const unsigned blocks = unsigned((threads + kGlobalThreads - 1) / kGlobalThreads);
  global_steps_kernel<T, R><<<blocks, kGlobalThreads, 0, s>>>(data, count, k, low);
  ks::cuda::check_launch("bitonic global_steps");
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
    default:
      launch_global_steps<T, 4>(data, count, k, low, s);
      break;
  }
}

}  // namespace

template <class T>
void bitonic_sort_pow2(T* data, std::size_t count, cudaStream_t s) {
  if (count < 2) return;
  const int elems = int(std::min<std::size_t>(count, kBlockElems));
  sort_blocks_kernel<T><<<unsigned(count / std::size_t(elems)), kThreads, 0, s>>>(data, elems);
  ks::cuda::check_launch("bitonic sort_blocks");
  for (std::size_t k = 2 * std::size_t(kBlockElems); k <= count; k *= 2) {
    // Strides k/2 down to kBlockElems cross blocks: passes of up to kMaxRegisterSteps strides each.
    for (int top = std::countr_zero(k) - 1; top >= kLogBlockElems;) {
      const int r = std::min(kMaxRegisterSteps, top - kLogBlockElems + 1);
      global_steps(data, count, k, top - r + 1, r, s);
      top -= r;
    }
    merge_blocks_kernel<T><<<unsigned(count / kBlockElems), kThreads, 0, s>>>(data, k);
    ks::cuda::check_launch("bitonic merge_blocks");
  }
}

const void* bitonic_merge_kernel(bool pairs) {
  return pairs ? reinterpret_cast<const void*>(&merge_blocks_kernel<std::uint64_t>)
               : reinterpret_cast<const void*>(&merge_blocks_kernel<std::uint32_t>);
}

template void bitonic_sort_pow2<std::uint32_t>(std::uint32_t*, std::size_t, cudaStream_t);
template void bitonic_sort_pow2<std::uint64_t>(std::uint64_t*, std::size_t, cudaStream_t);

}  // namespace ks::lab::cuda
