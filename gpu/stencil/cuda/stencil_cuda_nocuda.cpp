// Built only without the CUDA backend. Unreachable in practice (no CudaContext can exist), kept so that callers
// link and fail with a clear message.
#include "core/no_cuda.hpp"
#include "stencil/cuda/stencil_cuda.hpp"

namespace ks::cuda {

StencilRun run_stencil(CudaContext&, const StencilPlan&, const std::string&, const Image&, BlockShape, int, int,
                       const StencilOutputs&) {
  throw_no_cuda();
}
StencilRun run_stencil_on_device(CudaContext&, const StencilPlan&, const std::string&, const DeviceImageRef&,
                                 BlockShape, int, int, bool) {
  throw_no_cuda();
}
OccupancyReport stencil_occupancy(CudaContext&, const StencilPlan&, const std::string&, ElemType, int,
                                  BlockShape) {
  throw_no_cuda();
}
BlockShape suggest_block(CudaContext&, const StencilPlan&, const std::string&, ElemType, int) { throw_no_cuda(); }

}  // namespace ks::cuda
