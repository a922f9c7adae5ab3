#include "core/no_cuda.hpp"
#include "usercode/run/plan_executor.hpp"

namespace ks::usercode {

struct PlanExecutor::Impl {};

PlanExecutor::PlanExecutor() = default;
PlanExecutor::~PlanExecutor() = default;

WorkerHello PlanExecutor::open_device() {
  WorkerHello h;
  h.message = kNoCudaBackend;
  return h;
}

void PlanExecutor::pin(std::span<std::byte>) {}
void PlanExecutor::unpin(std::span<std::byte>) {}

WorkerReply PlanExecutor::execute(const LaunchPlan&, std::span<std::byte>, std::span<std::byte>,
                                  const std::function<void(int)>&) {
  WorkerReply r;
  r.outcome = RunOutcome::Failed;
  r.message = kNoCudaBackend;
  return r;
}

}  // namespace ks::usercode
