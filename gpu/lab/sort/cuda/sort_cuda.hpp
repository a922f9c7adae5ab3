#pragma once
// The CUDA sorts of the lab's `sort` kernel, declared without CUDA headers (streams are `void*`
// cudaStream_t).
//   bitonic  written here: the input padded to a power of two, blocks of 4096 sorted in shared memory, then
//            merge steps in global memory (up to four strides per pass, in registers) and in shared memory;
//            pairs travel as 64-bit words key << 32 | value, so equal keys come out ordered by value, exactly
//            as the CPU variants order them. Not stable.
//   radix    CUB's DeviceRadixSort (SortKeys / SortPairs): stable, equal keys keep their input order.
// In a build without CUDA every function throws a Device error that suggests the CPU variants.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ks::lab::cuda {

enum class GpuSort { Bitonic, Radix };

// Device arrays of one sort. The input is only read, so a timed loop can sort the same input again and again
// without restoring it; the output may not overlap it.
struct DeviceSortArrays {
  const std::uint32_t* keys_in = nullptr;
  const std::uint32_t* values_in = nullptr;  // null: keys only
  std::uint32_t* keys_out = nullptr;
  std::uint32_t* values_out = nullptr;  // null exactly when values_in is
  std::size_t n = 0;
};

// Device memory the variant needs besides input and output: bitonic the padded working copy, radix CUB's
// temporary storage.
std::size_t sort_scratch_bytes(GpuSort variant, std::size_t n, bool pairs);
// Input + output + scratch: what a sort of n keys (pairs) takes on the device.
std::size_t sort_device_bytes(GpuSort variant, std::size_t n, bool pairs);

// Enqueues the whole sort (padding and unpacking included) on `stream`; returns at once.
void enqueue_sort(GpuSort variant, const DeviceSortArrays& arrays, void* scratch, std::size_t scratch_bytes,
                  void* stream);

// Milliseconds of one sort from host arrays: the upload, each timed sort (after one warm-up), the download.
struct GpuSortTimes {
  double upload_ms = 0;
  std::vector<double> sort_ms;
  double download_ms = 0;
};

// Host arrays in, sorted host arrays out (values empty for keys only). Checks the size and that the device
// has the memory (an OutOfMemory error saying what is needed and what is free) before allocating anything.
GpuSortTimes sort_on_gpu(GpuSort variant, std::span<std::uint32_t> keys, std::span<std::uint32_t> values,
                         int timed_runs, void* stream);

}  // namespace ks::lab::cuda
