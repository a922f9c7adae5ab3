// Built only without the CUDA backend: run_lab never gets here (Runtime::cuda() throws first), but it links.
#include "core/no_cuda.hpp"
#include "lab/lab_cuda.hpp"

namespace ks::lab {

CudaOutcome run_lab_cuda(CudaContext&, const CudaJob&) {
  throw_no_cuda();
}

std::uint64_t device_free_memory(CudaContext&) { return 0; }

}  // namespace ks::lab
