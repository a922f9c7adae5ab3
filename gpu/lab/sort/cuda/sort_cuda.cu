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

using ks::cuda::check;

constexpr unsigned kCopyThreads = 256;
constexpr std::size_t kAlign = 256;  // workspace pieces start on 256-byte boundaries

unsigned copy_blocks(std::size_t count) {
  return unsigned((count + kCopyThreads - 1) / kCopyThreads);
}
std::size_t aligned(std::size_t bytes) {
  return (bytes + kAlign - 1) / kAlign * kAlign;
}
std::size_t padded(std::size_t n) {
  return std::bit_ceil(n);
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

std::size_t bitonic_workspace_bytes(std::size_t n, bool pairs) {
  if (!pairs && padded(n) == n) return 0;  // a power-of-two count of keys is sorted where it is
  return padded(n) * (pairs ? sizeof(std::uint64_t) : sizeof(std::uint32_t));
}

void enqueue_bitonic(const DeviceSortArrays& a, void* workspace, cudaStream_t s) {
  const std::size_t count = padded(a.n);
  if (a.values) {
    auto* work = static_cast<std::uint64_t*>(workspace);
    pack_pairs_kernel<<<copy_blocks(count), kCopyThreads, 0, s>>>(a.keys, a.values, a.n, work, count);
    ks::cuda::check_launch("bitonic pack_pairs");
    bitonic_sort_pow2(work, count, s);
    unpack_pairs_kernel<<<copy_blocks(a.n), kCopyThreads, 0, s>>>(work, a.n, a.keys, a.values);
    ks::cuda::check_launch("bitonic unpack_pairs");
    return;
  }
  if (count == a.n) {
    bitonic_sort_pow2(a.keys, count, s);
    return;
  }
  auto* work = static_cast<std::uint32_t*>(workspace);
  pad_keys_kernel<<<copy_blocks(count), kCopyThreads, 0, s>>>(a.keys, a.n, work, count);
  ks::cuda::check_launch("bitonic pad_keys");
  bitonic_sort_pow2(work, count, s);
  check(cudaMemcpyAsync(a.keys, work, a.n * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice, s),
        "cudaMemcpyAsync (sorted keys)");
}

// Radix: CUB's DoubleBuffer form, with the arrays as the current buffers and the workspace holding the other
// halves, then CUB's temporary storage. CUB flips between the halves once per pass; should the result end in
// the workspace, it is copied back.
struct RadixLayout {
  std::size_t alt_keys = 0, alt_values = 0, temp = 0, temp_bytes = 0, total = 0;
};

RadixLayout radix_layout(std::size_t n, bool pairs) {
  RadixLayout l;
  const std::size_t half = aligned(n * sizeof(std::uint32_t));
  l.alt_values = half;
  l.temp = pairs ? 2 * half : half;
  cub::DoubleBuffer<std::uint32_t> keys(nullptr, nullptr), values(nullptr, nullptr);
  const int items = int(n);
  if (pairs)
    check(cub::DeviceRadixSort::SortPairs(nullptr, l.temp_bytes, keys, values, items),
          "cub::DeviceRadixSort::SortPairs (temporary storage size)");
  else
    check(cub::DeviceRadixSort::SortKeys(nullptr, l.temp_bytes, keys, items),
          "cub::DeviceRadixSort::SortKeys (temporary storage size)");
  l.total = l.temp + l.temp_bytes;
  return l;
}

void enqueue_radix(const DeviceSortArrays& a, void* workspace, cudaStream_t s) {
  const bool pairs = a.values != nullptr;
  const RadixLayout l = radix_layout(a.n, pairs);
  auto* base = static_cast<std::byte*>(workspace);
  cub::DoubleBuffer<std::uint32_t> keys(a.keys, reinterpret_cast<std::uint32_t*>(base + l.alt_keys));
  cub::DoubleBuffer<std::uint32_t> values(a.values, reinterpret_cast<std::uint32_t*>(base + l.alt_values));
  std::size_t temp_bytes = l.temp_bytes;
  const int items = int(a.n);
  if (pairs)
    check(cub::DeviceRadixSort::SortPairs(base + l.temp, temp_bytes, keys, values, items, 0, 32, s),
          "cub::DeviceRadixSort::SortPairs");
  else
    check(cub::DeviceRadixSort::SortKeys(base + l.temp, temp_bytes, keys, items, 0, 32, s),
          "cub::DeviceRadixSort::SortKeys");
  const std::size_t bytes = a.n * sizeof(std::uint32_t);
  if (keys.Current() != a.keys)
    check(cudaMemcpyAsync(a.keys, keys.Current(), bytes, cudaMemcpyDeviceToDevice, s),
          "cudaMemcpyAsync (keys)");
  if (pairs && values.Current() != a.values)
    check(cudaMemcpyAsync(a.values, values.Current(), bytes, cudaMemcpyDeviceToDevice, s),
          "cudaMemcpyAsync (values)");
}

}  // namespace

std::size_t sort_workspace_bytes(GpuSort variant, std::size_t n, bool pairs) {
  check_sort_size(n);
  return variant == GpuSort::Radix ? radix_layout(n, pairs).total : bitonic_workspace_bytes(n, pairs);
}

void enqueue_sort(GpuSort variant, const DeviceSortArrays& a, void* workspace, std::size_t workspace_bytes,
                  void* stream) {
  check_sort_size(a.n);
  if (workspace_bytes < sort_workspace_bytes(variant, a.n, a.values != nullptr))
    throw Error(ErrorKind::Internal, "enqueue_sort: the workspace is too small");
  const auto s = static_cast<cudaStream_t>(stream);
  if (variant == GpuSort::Radix)
    enqueue_radix(a, workspace, s);
  else
    enqueue_bitonic(a, workspace, s);
}

GpuSortTimes sort_on_gpu(GpuSort variant, std::span<std::uint32_t> keys, std::span<std::uint32_t> values,
                         int timed_runs, void* stream) {
  const std::size_t n = keys.size();
  const bool pairs = !values.empty();
  check_sort_size(n);
  if (pairs && values.size() != n)
    throw Error(ErrorKind::Internal, "sort_on_gpu: keys and values differ in length");
  const std::size_t bytes = n * sizeof(std::uint32_t), arrays = pairs ? 2 : 1;
  const std::size_t workspace_bytes = sort_workspace_bytes(variant, n, pairs);
  char what[96];
  std::snprintf(what, sizeof what, "sorting %zu %s on the GPU", n, pairs ? "pairs" : "keys");
  check_free_device_memory(2 * arrays * bytes + workspace_bytes, what,
                           "sort fewer keys, or use --variant cpu");
  using ks::cuda::DeviceBuffer;
  DeviceBuffer input(arrays * bytes, "the input"), work(arrays * bytes, "the arrays to sort");
  DeviceBuffer workspace(workspace_bytes, "the sort's workspace");
  auto* in = input.as<std::uint32_t>();
  auto* out = work.as<std::uint32_t>();
  const auto s = static_cast<cudaStream_t>(stream);
  GpuSortTimes times;
  ks::cuda::EventTimer timer(s);

  timer.start();
  check(cudaMemcpyAsync(in, keys.data(), bytes, cudaMemcpyHostToDevice, s), "upload of keys");
  if (pairs)
    check(cudaMemcpyAsync(in + n, values.data(), bytes, cudaMemcpyHostToDevice, s), "upload of values");
  timer.stop();
  times.upload_ms = timer.elapsed_ms();

  const DeviceSortArrays a{out, pairs ? out + n : nullptr, n};
  for (int run = -1; run < timed_runs; ++run) {  // run -1 warms up (clocks, CUB's first launch)
    check(cudaMemcpyAsync(out, in, arrays * bytes, cudaMemcpyDeviceToDevice, s), "restoring the input");
    timer.start();
    enqueue_sort(variant, a, workspace.get(), workspace_bytes, stream);
    timer.stop();
    const double ms = timer.elapsed_ms();
    if (run >= 0) times.sort_ms.push_back(ms);
  }

  timer.start();
  check(cudaMemcpyAsync(keys.data(), out, bytes, cudaMemcpyDeviceToHost, s), "download of keys");
  if (pairs)
    check(cudaMemcpyAsync(values.data(), out + n, bytes, cudaMemcpyDeviceToHost, s), "download of values");
  timer.stop();
  times.download_ms = timer.elapsed_ms();
  return times;
}

}  // namespace ks::lab::cuda
