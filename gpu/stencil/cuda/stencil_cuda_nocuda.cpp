// Built only without the CUDA backend. Unreachable in practice (no CudaContext can exist), kept so that callers
// link and fail with a clear message.
#include "core/error.hpp"
#include "stencil/cuda/stencil_cuda.hpp"

namespace ks::cuda {

namespace {
[[noreturn]] void no_cuda() {
  throw Error(ErrorKind::Device, "this build of kernelscope has no CUDA backend", "use --backend cpu");
}
}  // namespace

StencilRun run_stencil(CudaContext&, const StencilPlan&, const std::string&, const Image&, BlockShape, int, int,
                       const StencilOutputs&) {
  no_cuda();
}
OccupancyReport stencil_occupancy(CudaContext&, const StencilPlan&, const std::string&, ElemType, int,
                                  BlockShape) {
  no_cuda();
}
BlockShape suggest_block(CudaContext&, const StencilPlan&, const std::string&, ElemType, int) { no_cuda(); }

}  // namespace ks::cuda
