#pragma once
// The worker's side: runs a LaunchPlan on the GPU with the CUDA runtime (cudaLibraryLoadData on the CUBIN the
// client compiled, cudaLaunchKernel on the entry), timing each launch with events. Modules stay loaded, keyed by
// their hash, so running an unchanged kernel again loads nothing. Only the worker process uses this: a fault
// here poisons the process's context, which is why the worker exits after replying Fault.
#include <cstddef>
#include <functional>
#include <memory>
#include <span>

#include "usercode/run/launch_plan.hpp"

namespace ks::usercode {

class PlanExecutor {
 public:
  PlanExecutor();
  PlanExecutor(const PlanExecutor&) = delete;
  PlanExecutor& operator=(const PlanExecutor&) = delete;
  ~PlanExecutor();

  // Opens device 0: its name and architecture, or why there is no usable GPU.
  WorkerHello open_device();

  // The worker maps each of the client's blocks of shared memory once and keeps it; pinning it (cudaHostRegister)
  // makes the copies to and from the GPU run at DMA speed instead of through the driver's staging buffers. Several
  // blocks may be pinned at once (the main block and the result blocks); unpin each before unmapping it.
  void pin(std::span<std::byte> memory);
  void unpin(std::span<std::byte> memory);

  // `memory`: the main block (module, inputs, and the buffers not in_result_block); `results`: the result block
  // (empty when the plan has no buffer in it). `progress(k)`: 0 once the module is loaded and the buffers are on
  // the device, then after each launch k. The buffers a run allocates are kept for the next run of the same sizes.
  WorkerReply execute(const LaunchPlan& plan, std::span<std::byte> memory, std::span<std::byte> results,
                      const std::function<void(int)>& progress);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ks::usercode
