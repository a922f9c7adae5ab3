// A build without CUDA: the lab's device sums say so (the cpu variant still runs).
#include "core/no_cuda.hpp"
#include "lab/reduce/device_sum.hpp"

namespace ks::lab {

DeviceSumPlan plan_array_sum(SumVariant, Accumulate, long long, int, const DeviceInfo&) {
  throw_no_cuda();
}
void array_sum(const DeviceSumPlan&, const float*, void*, void*, void*) {
  throw_no_cuda();
}

}  // namespace ks::lab
