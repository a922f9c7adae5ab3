// Built only without the CUDA backend.
#include "core/error.hpp"
#include "sim/cuda/sim_cuda.hpp"

namespace ks::sim::cuda {

std::unique_ptr<SimBackend> make_cuda_backend(CudaContext&, const SimModel&, const std::string&, BlockShape) {
  throw Error(ErrorKind::Device, "this build of kernelscope has no CUDA backend", "use --backend cpu");
}

}  // namespace ks::sim::cuda
