// Dispatch of the lab's CUDA sorts: bitonic (padding and packing around bitonic_sort_pow2) and CUB's radix
// sort.
#include <cuda_runtime.h>

#include <bit>
#include <cstdio>
#include <cub/device/device_radix_sort.cuh>
#include <limits>

#include "core/cuda/device_buffer.cuh"
#include "core/cuda/event_timer.cuh"
#include "lab/cuda/device_memory_check.cuh"
#include "lab/sort/cuda/bitonic_sort.cuh"
#include "lab/sort/cuda/sort_cuda.hpp"
#include "lab/sort/sort_data.hpp"

namespace ks::lab::cuda {

namespace {

constexpr unsigned kCopyThreads = 256;

unsigned copy_blocks(std::size_t count) {
  return unsigned((count + kCopyThreads - 1) / kCopyThreads);
}

// The working copy of bitonic: the keys, then UINT32_MAX up to the power of two. Sentinels sort last, and a
// real key equal to the sentinel is the same value, so the first n elements of the sorted copy are the
// answer.
__global__ void pad_keys_kernel(const std::uint32_t* in, std::size_t n, std::uint32_t* work,
                                std::size_t count) {
  const std::size_t i = std::size_t(blockIdx.x) * kCopyThreads + threadIdx.x;
  if (i < count) work[i] = i < n ? in[i] : std::numeric_limits<std::uint32_t>::max();
}

__global__ void pack_pairs_kernel(const std::uint32_t* keys, const std::uint32_t* values, std::size_t n,
                                  std::uint64_t* work, std::size_t count) {
  const std::size_t i = std::size_t(blockIdx.x) * kCopyThreads + threadIdx.x;
  if (i < count)
    work[i] = i < n ? (std::uint64_t(keys[i]) << 32) | values[i] : std::numeric_limits<std::uint64_t>::max();
}

__global__ void unpack_pairs_kernel(const std::uint64_t* work, std::size_t n, std::uint32_t* keys,
                                    std::uint32_t* values) {
  const std::size_t i = std::size_t(blockIdx.x) * kCopyThreads + threadIdx.x;
  if (i < n) {
    keys[i] = std::uint32_t(work[i] >> 32);
    values[i] = std::uint32_t(work[i]);
  }
}

std::size_t padded(std::size_t n) {
  return std::bit_ceil(n);
}

// A power-of-two count of keys is sorted in the output itself: no scratch, one pass fewer.
bool bitonic_in_output(std::size_t n, bool pairs) {
  return !pairs && padded(n) == n;
}

std::size_t radix_scratch_bytes(std::size_t n, bool pairs) {
  std::size_t bytes = 0;
  const int items = int(n);
  if (pairs)
    ks::cuda::check(cub::DeviceRadixSort::SortPairs<std::uint32_t, std::uint32_t>(
                        nullptr, bytes, nullptr, nullptr, nullptr, nullptr, items),
                    "cub::DeviceRadixSort::SortPairs (temporary storage size)");
  else
    ks::cuda::check(cub::DeviceRadixSort::SortKeys<std::uint32_t>(nullptr, bytes, nullptr, nullptr, items),
                    "cub::DeviceRadixSort::SortKeys (temporary storage size)");
  return bytes;
}

void enqueue_bitonic(const DeviceSortArrays& a, void* scratch, cudaStream_t s) {
  const std::size_t count = padded(a.n);
  if (a.values_in) {
    auto* work = static_cast<std::uint64_t*>(scratch);
    pack_pairs_kernel<<<copy_blocks(count), kCopyThreads, 0, s>>>(a.keys_in, a.values_in, a.n, work, count);
    ks::cuda::check_launch("bitonic pack_pairs");
    bitonic_sort_pow2(work, count, s);
    unpack_pairs_kernel<<<copy_blocks(a.n), kCopyThreads, 0, s>>>(work, a.n, a.keys_out, a.values_out);
    ks::cuda::check_launch("bitonic unpack_pairs");
    return;
  }
  if (bitonic_in_output(a.n, false)) {
    ks::cuda::check(cudaMemcpyAsync(a.keys_out, a.keys_in, a.n * 4, cudaMemcpyDeviceToDevice, s),
                    "cudaMemcpyAsync (keys)");
    bitonic_sort_pow2(a.keys_out, count, s);
    return;
  }
  auto* work = static_cast<std::uint32_t*>(scratch);
  pad_keys_kernel<<<copy_blocks(count), kCopyThreads, 0, s>>>(a.keys_in, a.n, work, count);
  ks::cuda::check_launch("bitonic pad_keys");
  bitonic_sort_pow2(work, count, s);
  ks::cuda::check(cudaMemcpyAsync(a.keys_out, work, a.n * 4, cudaMemcpyDeviceToDevice, s),
                  "cudaMemcpyAsync (sorted keys)");
}

void enqueue_radix(const DeviceSortArrays& a, void* scratch, std::size_t bytes, cudaStream_t s) {
  const int items = int(a.n);
  if (a.values_in)
    ks::cuda::check(cub::DeviceRadixSort::SortPairs(scratch, bytes, a.keys_in, a.keys_out, a.values_in,
                                                    a.values_out, items, 0, 32, s),
                    "cub::DeviceRadixSort::SortPairs");
  else
    ks::cuda::check(cub::DeviceRadixSort::SortKeys(scratch, bytes, a.keys_in, a.keys_out, items, 0, 32, s),
                    "cub::DeviceRadixSort::SortKeys");
}

}  // namespace

std::size_t sort_scratch_bytes(GpuSort variant, std::size_t n, bool pairs) {
  check_sort_size(n);
  if (variant == GpuSort::Radix) return radix_scratch_bytes(n, pairs);
  if (bitonic_in_output(n, pairs)) return 0;
  return padded(n) * (pairs ? sizeof(std::uint64_t) : sizeof(std::uint32_t));
}

std::size_t sort_device_bytes(GpuSort variant, std::size_t n, bool pairs) {
  const std::size_t arrays = (pairs ? 4 : 2) * n * sizeof(std::uint32_t);  // input and output
  return arrays + sort_scratch_bytes(variant, n, pairs);
}

void enqueue_sort(GpuSort variant, const DeviceSortArrays& a, void* scratch, std::size_t scratch_bytes,
                  void* stream) {
  check_sort_size(a.n);
  const bool pairs = a.values_in != nullptr;
  if (pairs != (a.values_out != nullptr) || scratch_bytes < sort_scratch_bytes(variant, a.n, pairs))
    throw Error(ErrorKind::Internal, "enqueue_sort: values given on one side only, or too little scratch");
  const auto s = static_cast<cudaStream_t>(stream);
  if (variant == GpuSort::Radix)
    enqueue_radix(a, scratch, scratch_bytes, s);
  else
    enqueue_bitonic(a, scratch, s);
}

GpuSortTimes sort_on_gpu(GpuSort variant, std::span<std::uint32_t> keys, std::span<std::uint32_t> values,
                         int timed_runs, void* stream) {
  const std::size_t n = keys.size();
  const bool pairs = !values.empty();
  check_sort_size(n);
  if (pairs && values.size() != n)
    throw Error(ErrorKind::Internal, "sort_on_gpu: keys and values differ in length");
  char what[96];
  std::snprintf(what, sizeof what, "sorting %zu %s on the GPU", n, pairs ? "pairs" : "keys");
  check_free_device_memory(sort_device_bytes(variant, n, pairs), what,
                           "sort fewer keys, or use --variant cpu");
  const std::size_t bytes = n * sizeof(std::uint32_t);
  using ks::cuda::DeviceBuffer;
  DeviceBuffer keys_in(bytes, "the keys"), keys_out(bytes, "the sorted keys");
  DeviceBuffer values_in(pairs ? bytes : 0, "the values"), values_out(pairs ? bytes : 0, "the sorted values");
  const std::size_t scratch_bytes = sort_scratch_bytes(variant, n, pairs);
  DeviceBuffer scratch(scratch_bytes, "the sort's scratch");
  const auto s = static_cast<cudaStream_t>(stream);
  GpuSortTimes times;
  ks::cuda::EventTimer timer(s);

  timer.start();
  ks::cuda::check(cudaMemcpyAsync(keys_in.get(), keys.data(), bytes, cudaMemcpyHostToDevice, s),
                  "upload of keys");
  if (pairs)
    ks::cuda::check(cudaMemcpyAsync(values_in.get(), values.data(), bytes, cudaMemcpyHostToDevice, s),
                    "upload of values");
  timer.stop();
  times.upload_ms = timer.elapsed_ms();

  const DeviceSortArrays arrays{keys_in.as<std::uint32_t>(), pairs ? values_in.as<std::uint32_t>() : nullptr,
                                keys_out.as<std::uint32_t>(),
                                pairs ? values_out.as<std::uint32_t>() : nullptr, n};
  for (int run = -1; run < timed_runs; ++run) {  // run -1 warms up (clocks, CUB's first launch)
    timer.start();
    enqueue_sort(variant, arrays, scratch.get(), scratch_bytes, stream);
    timer.stop();
    const double ms = timer.elapsed_ms();
    if (run >= 0) times.sort_ms.push_back(ms);
  }

  timer.start();
  ks::cuda::check(cudaMemcpyAsync(keys.data(), keys_out.get(), bytes, cudaMemcpyDeviceToHost, s),
                  "download of keys");
  if (pairs)
    ks::cuda::check(cudaMemcpyAsync(values.data(), values_out.get(), bytes, cudaMemcpyDeviceToHost, s),
                    "download of values");
  timer.stop();
  times.download_ms = timer.elapsed_ms();
  return times;
}

}  // namespace ks::lab::cuda
