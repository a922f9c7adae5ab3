// Built only without the CUDA backend: asking for the bounds on a GPU says so and suggests the CPU.
#include "core/no_cuda.hpp"
#include "topo/bnb/bound_batch_cuda.hpp"

namespace ks::topo {

std::vector<std::int64_t> gl_bounds_cuda(CudaContext&, const std::int64_t*, const std::int64_t*, int,
                                         const std::vector<int>&, const std::vector<int>&, int, std::size_t) {
  throw_no_cuda();
}

}  // namespace ks::topo

namespace ks::topo {

std::unique_ptr<NodeEvaluator> make_cuda_node_evaluator(CudaContext&) { throw_no_cuda(); }

}  // namespace ks::topo
