#pragma once
// integrate2d on the GPU: the lab's sum variants (device_sum.hpp) over midpoint samples computed on the fly,
// so nothing but the result crosses memory. Declared without CUDA headers; `stream` is a cudaStream_t.
#include "core/device_info.hpp"
#include "lab/integrate2d/integrand.hpp"
#include "lab/reduce/device_sum.hpp"

namespace ks::lab {

// Plans the sum of the grid's samples; a usage Error for a block the variant cannot use (see plan_array_sum).
DeviceSumPlan plan_integrand_sum(SumVariant variant, Accumulate accumulate, const MidpointGrid& grid,
                                 int block, const DeviceInfo& device);

// The sum of the samples written to *d_result (float or double per the plan), asynchronously on `stream`.
void integrand_sum(const DeviceSumPlan& plan, const MidpointGrid& grid, void* d_result, void* d_workspace,
                   void* stream);

}  // namespace ks::lab
