// Built only without the CUDA backend: run_lab never gets here (Engine::cuda() throws first), but it links.
#include "core/error.hpp"
#include "lab/lab_cuda.hpp"

namespace ks::lab {

CudaOutcome run_lab_cuda(CudaContext&, const CudaJob&) {
  throw Error(ErrorKind::Device, "this build of kernelscope has no CUDA backend", "use --backend cpu");
}

std::uint64_t device_free_memory(CudaContext&) { return 0; }

}  // namespace ks::lab
