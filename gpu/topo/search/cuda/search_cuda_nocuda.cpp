// Built only without the CUDA backend: asking for the CUDA search says so and suggests the CPU.
#include "core/no_cuda.hpp"
#include "topo/search/search_backend.hpp"

namespace ks::topo {

std::unique_ptr<SearchBackend> make_cuda_search(const SearchSetup&, CudaContext&) {
  throw_no_cuda();
}

}  // namespace ks::topo
