// Built only without the CUDA backend: asking for the CUDA sweep says so and suggests the CPU.
#include "core/error.hpp"
#include "topo/sweep/sweep_backend.hpp"

namespace ks::topo {

std::unique_ptr<SweepBackend> make_cuda_backend(const Problem&, CudaContext&, const std::string&, int) {
  throw Error(ErrorKind::Device, "this build of kernelscope has no CUDA backend", "use --backend cpu");
}

}  // namespace ks::topo
