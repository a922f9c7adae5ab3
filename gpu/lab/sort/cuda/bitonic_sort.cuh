#pragma once
// Bitonic sort of a power-of-two count of u32 or u64 elements in place on the device (the teaching version).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace ks::lab::cuda {

// Blocks of the shared-memory kernels: 512 threads sorting or merging 4096 elements.
inline constexpr int kBitonicThreads = 512;
inline constexpr std::size_t kBitonicBlockElems = 4096;

// The shared-memory merge kernel for u32 (keys) or u64 (packed pairs) elements, for the occupancy report.
const void* bitonic_merge_kernel(bool pairs);

// count must be a power of two (1 included); pad with the type's maximum to sort any n.
template <class T>
void bitonic_sort_pow2(T* data, std::size_t count, cudaStream_t stream);

extern template void bitonic_sort_pow2<std::uint32_t>(std::uint32_t*, std::size_t, cudaStream_t);
extern template void bitonic_sort_pow2<std::uint64_t>(std::uint64_t*, std::size_t, cudaStream_t);

}  // namespace ks::lab::cuda
