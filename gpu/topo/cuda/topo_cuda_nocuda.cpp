// Built only without the CUDA backend: asking for the CUDA sweep says so and suggests the CPU.
#include "core/no_cuda.hpp"
#include "topo/sweep/sweep_backend.hpp"

namespace ks::topo {

std::unique_ptr<SweepBackend> make_cuda_backend(const Problem&, CudaContext&, const std::string&, int) {
  throw_no_cuda();
}

}  // namespace ks::topo
