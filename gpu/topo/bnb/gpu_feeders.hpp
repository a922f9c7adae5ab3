#pragma once
// The evaluators (node_batch.hpp) that several threads feed one GPU with: the first on the context given, the
// others each on a context of its own on the same device (so a stream of its own), so that one thread's batch
// runs while another branches its nodes on the CPU. Used alike by the CLI (app/cli/bnb_devices.*), the app's
// proof and Python's; the request takes evaluators() (BnbRequest::evaluators), a feeding thread each.
#include <memory>
#include <vector>

#include "core/cuda_context.hpp"
#include "topo/bnb/node_batch.hpp"

namespace ks::topo {

class GpuFeeders {
 public:
  // feeders >= 1 (default_feeders_per_gpu, bnb.hpp, when the user does not say). `first` must outlive this.
  GpuFeeders(CudaContext& first, int feeders);
  GpuFeeders(const GpuFeeders&) = delete;
  GpuFeeders& operator=(const GpuFeeders&) = delete;

  const std::vector<NodeEvaluator*>& evaluators() const { return pointers_; }

 private:
  std::vector<std::unique_ptr<CudaContext>> contexts_;
  std::vector<std::unique_ptr<NodeEvaluator>> evaluators_;  // after contexts_: destroyed before them
  std::vector<NodeEvaluator*> pointers_;
};

}  // namespace ks::topo
