#pragma once
// Kernels whose counters are known in advance (tests/gpu/test_counters_cuda.cpp): each allocates what it needs,
// runs once under CudaContext::read_counters and returns the reading.
#include <cstddef>

#include "core/cuda_context.hpp"

namespace ks::test {

// A float copy of `bytes` bytes (read and written once): DRAM bound.
CounterReading counters_of_copy(CudaContext& ctx, std::size_t bytes);
// Each lane loads one float `stride` floats after its neighbour's (1: a warp reads 128 contiguous bytes, 4
// sectors; 32 and more: every lane its own sector).
CounterReading counters_of_strided_loads(CudaContext& ctx, int stride);
// Each lane reads shared memory at lane * stride words (1: no bank conflict; 32: all 32 lanes in one bank).
CounterReading counters_of_shared_stride(CudaContext& ctx, int stride);
// The same arithmetic with every lane on one path, or odd and even lanes on two paths of equal length.
CounterReading counters_of_branches(CudaContext& ctx, bool divergent);

}  // namespace ks::test
