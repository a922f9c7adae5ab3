// Built only without the CUDA backend: asking for the CUDA search says so and suggests the CPU.
#include "core/error.hpp"
#include "topo/search/search_backend.hpp"

namespace ks::topo {

std::unique_ptr<SearchBackend> make_cuda_search(const SearchSetup&, CudaContext&) {
  throw Error(ErrorKind::Device, "this build of kernelscope has no CUDA backend", "use --backend cpu");
}

}  // namespace ks::topo
