#include "topo/bnb/gpu_feeders.hpp"

#include "core/error.hpp"
#include "topo/bnb/bound_batch_cuda.hpp"

namespace ks::topo {

GpuFeeders::GpuFeeders(CudaContext& first, int feeders) {
  if (feeders < 1) throw Error(ErrorKind::Internal, "GpuFeeders: a GPU needs at least one feeding thread");
  evaluators_.push_back(make_cuda_node_evaluator(first));
  for (int k = 1; k < feeders; ++k) {
    contexts_.push_back(CudaContext::create(first.device().index));
    evaluators_.push_back(make_cuda_node_evaluator(*contexts_.back()));
  }
  for (const auto& e : evaluators_) pointers_.push_back(e.get());
}

}  // namespace ks::topo
