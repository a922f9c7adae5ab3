#pragma once
// Runs a user's `step` kernel through the worker: `steps` launches over a width x height state of one value per
// cell (u8 or f32), the state and next buffers exchanged after each launch as the built-in simulations do, every
// step timed. The state after the last step comes back.
#include "core/image.hpp"
#include "usercode/run/user_launch.hpp"
#include "usercode/run/worker_client.hpp"

namespace ks::usercode {

// The element type a step entry takes (U8 or F32); Usage Error when the kernel is not of the step family.
ElemType step_element(const CompiledKernel& kernel);

struct UserStepRun {
  Image state;  // after the last step; empty unless reply.outcome is Ok
  WorkerReply reply;  // kernel_ms: one per step
  std::array<unsigned, 2> block{};
  std::array<unsigned, 2> grid{};
};

// `initial`: one channel of the kernel's element type. options.warmup and options.repeat are ignored: each of
// the `steps` launches is a step, timed.
UserStepRun run_user_steps(WorkerClient& worker, const CompiledKernel& kernel, const Image& initial, int steps,
                           const UserLaunchOptions& options);

}  // namespace ks::usercode
