#pragma once
// The CUDA sorts of the lab's `sort` kernel, declared without CUDA headers (streams are `void*`
// cudaStream_t).
//   bitonic  written here: the input padded to a power of two, blocks of 4096 sorted in registers, warp
//            shuffles and shared memory, then merge steps across blocks (up to six strides per pass over
//            memory, in registers) and inside blocks; pairs travel as 64-bit words key << 32 | value, so
//            equal keys come out ordered by value, exactly as the CPU variants order them. Not stable.
//   radix    CUB's DeviceRadixSort (SortKeys / SortPairs): stable, equal keys keep their input order.
// In a build without CUDA every function throws a Device error that suggests the CPU variants.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ks::lab::cuda {

enum class GpuSort { Bitonic, Radix };

// Device arrays of one sort, sorted in place (the lab's InOut arrays: the framework restores them before each
// timed launch, so no launch sorts an already sorted buffer).
struct DeviceSortArrays {
  std::uint32_t* keys = nullptr;
  std::uint32_t* values = nullptr;  // null: keys only
  std::size_t n = 0;
};

// Device scratch the variant needs besides the arrays: bitonic the padded working copy (none for a
// power-of-two count of keys), radix the other half of CUB's double buffer and its temporary storage.
std::size_t sort_workspace_bytes(GpuSort variant, std::size_t n, bool pairs);

// Enqueues the whole sort (padding, packing and copies back included) on `stream`; returns at once.
void enqueue_sort(GpuSort variant, const DeviceSortArrays& arrays, void* workspace,
                  std::size_t workspace_bytes, void* stream);

// Milliseconds of a sort from host arrays: the upload, each timed sort (after one warm-up), the download.
struct GpuSortTimes {
  double upload_ms = 0;
  std::vector<double> sort_ms;
  double download_ms = 0;
};

// Host arrays in, sorted host arrays out (values empty for keys only), outside the lab's framework (tests):
// the input stays on the device and is copied into the sorted arrays before each run, untimed. Checks the
// size and the free device memory (an OutOfMemory error saying what is needed and what is free) before
// allocating.
GpuSortTimes sort_on_gpu(GpuSort variant, std::span<std::uint32_t> keys, std::span<std::uint32_t> values,
                         int timed_runs, void* stream);

}  // namespace ks::lab::cuda
