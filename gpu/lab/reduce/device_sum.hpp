#pragma once
// CUDA sums for `reduce` (an f32 array in device memory) and `integrate2d` (midpoint samples generated on the
// fly), declared without CUDA headers: plain device pointers and a `void*` stream (a cudaStream_t). A plan
// holds the launch arithmetic (validated against the device) and the workspace the variant needs; the caller
// owns the memory (with --streams, each chunk sums into a result of its own, added up on the host).
#include <cstddef>
#include <string>

#include "core/device_info.hpp"
#include "core/occupancy.hpp"
#include "lab/reduce/sum_variant.hpp"

namespace ks::lab {

struct DeviceSumPlan {
  SumVariant variant = SumVariant::Warp;
  Accumulate accumulate = Accumulate::F32;
  long long n = 0;                  // values summed
  int block = 0;                    // threads per block of the main pass (CUB: its own choice, reported as 0)
  long long grid = 0;               // blocks of the main pass
  long long values_per_thread = 0;  // ceil(n / (grid * block)): how many values one thread adds (at most)
  std::string passes;               // what runs, e.g. "1 kernel + 1 atomic per block" for the report
  std::size_t workspace_bytes = 0;  // device scratch the caller provides (partials, CUB's temporary storage)
  OccupancyReport occupancy;        // of the main pass (CUB: empty)
};

// Plans the sum of an f32 array of n values with `block` threads per block. Throws a usage Error for a block
// the variant cannot use (shared: a power of two from 32 to 1024; warp: a multiple of 32; atomic: 1 to 1024;
// the device's limits), with what to choose instead.
DeviceSumPlan plan_array_sum(SumVariant variant, Accumulate accumulate, long long n, int block,
                             const DeviceInfo& device);

// The sum of d_x[0, n) written to *d_result: a float (f32 accumulation) or a double (f64). Asynchronous on
// `stream`; d_workspace holds plan.workspace_bytes. d_x needs only 4-byte alignment (a chunk may start
// anywhere).
void array_sum(const DeviceSumPlan& plan, const float* d_x, void* d_result, void* d_workspace, void* stream);

}  // namespace ks::lab
