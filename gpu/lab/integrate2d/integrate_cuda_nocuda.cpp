// A build without CUDA: integrate2d's device variants say so (the cpu variant still runs).
#include "lab/integrate2d/integrate_cuda.hpp"
#include "core/no_cuda.hpp"

namespace ks::lab {

DeviceSumPlan plan_integrand_sum(SumVariant, Accumulate, const MidpointGrid&, int, const DeviceInfo&) {
  throw_no_cuda();
}
void integrand_sum(const DeviceSumPlan&, const MidpointGrid&, void*, void*, void*) {
  throw_no_cuda();
}

}  // namespace ks::lab
