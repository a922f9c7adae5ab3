// Built only without the CUDA backend.
#include "core/no_cuda.hpp"
#include "sim/cuda/sim_cuda.hpp"

namespace ks::sim::cuda {

std::unique_ptr<SimBackend> make_cuda_backend(CudaContext&, const SimModel&, const std::string&, BlockShape) {
  throw_no_cuda();
}

}  // namespace ks::sim::cuda
