// integrate2d on the GPU: the generic sum kernels (sum_kernels.cuh) over an integrand's midpoint samples, one
// instantiation per integrand and accumulation type.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "lab/integrate2d/integrate_cuda.hpp"
#include "lab/reduce/cuda/sum_driver.cuh"

namespace ks::lab {
namespace kernels {
namespace {

template <Integrand F>
struct IntegrandSource {
  MidpointGrid grid;
  KS_HD float operator()(u64 i) const { return midpoint_sample<F>(grid, i); }
};

// CUB reads the samples through an iterator: the integrand applied to a counting index.
template <Integrand F>
auto cub_input(const MidpointGrid& g) {
  return thrust::make_transform_iterator(thrust::counting_iterator<u64>(0), IntegrandSource<F>{g});
}

template <class Acc, Integrand F>
WarpKernel integrand_warp_kernel() {
  return {reinterpret_cast<const void*>(warp_sum_kernel<Acc, IntegrandSource<F>>), "warp_sum", 1};
}

template <class Acc, Integrand F>
DeviceSumPlan plan(SumVariant v, const MidpointGrid& g, int block, const DeviceInfo& device) {
  const Accumulate a = sizeof(Acc) == 8 ? Accumulate::F64 : Accumulate::F32;
  return plan_sum<Acc, IntegrandSource<F>>(v, a, g.samples(), block, device, cub_input<F>(g),
                                           integrand_warp_kernel<Acc, F>());
}

template <class Acc, Integrand F>
void run(const DeviceSumPlan& p, const MidpointGrid& g, Acc* result, void* workspace, cudaStream_t stream) {
  const IntegrandSource<F> src{g};
  run_sum<Acc>(p, src, cub_input<F>(g), result, workspace, stream,
               [&](dim3 grid, dim3 block, Acc* r, cudaStream_t s) {
                 warp_sum_kernel<Acc, IntegrandSource<F>><<<grid, block, 0, s>>>(src, u64(p.n), r);
                 ks::cuda::check_launch("warp_sum");
               });
}

}  // namespace
}  // namespace kernels

DeviceSumPlan plan_integrand_sum(SumVariant variant, Accumulate accumulate, const MidpointGrid& grid,
                                 int block, const DeviceInfo& device) {
  return with_integrand(grid.f, [&](auto f) {
    constexpr Integrand F = decltype(f)::value;
    return accumulate == Accumulate::F64 ? kernels::plan<double, F>(variant, grid, block, device)
                                         : kernels::plan<float, F>(variant, grid, block, device);
  });
}

void integrand_sum(const DeviceSumPlan& plan, const MidpointGrid& grid, void* d_result, void* d_workspace,
                   void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  with_integrand(grid.f, [&](auto f) {
    constexpr Integrand F = decltype(f)::value;
    if (plan.accumulate == Accumulate::F64)
      kernels::run<double, F>(plan, grid, static_cast<double*>(d_result), d_workspace, s);
    else
      kernels::run<float, F>(plan, grid, static_cast<float*>(d_result), d_workspace, s);
  });
}

}  // namespace ks::lab
