#pragma once
// Runs a user's `step` kernel through the worker: `steps` launches over a width x height state of one value per
// cell (u8 or f32), the state and next buffers exchanged after each launch as the built-in simulations do, every
// step timed. The state can start from the host or from the one the worker kept on its GPU, stay there after the
// last step, and come back to the host only when asked (an animation fetches it once per shown frame).
#include <string>

#include "core/image.hpp"
#include "usercode/run/user_launch.hpp"
#include "usercode/run/worker_client.hpp"

namespace ks::usercode {

// The element type a step entry takes (U8 or F32); Usage Error when the kernel is not of the step family.
ElemType step_element(const CompiledKernel& kernel);

struct UserStepRun {
  Image state;  // after the last step, when it came back; empty unless reply.outcome is Ok
  WorkerReply reply;  // kernel_ms: one per step
  std::array<unsigned, 2> block{};
  std::array<unsigned, 2> grid{};
};

// Where a request's state comes from and where it goes.
struct StepStates {
  const Image* initial = nullptr;  // uploaded from the host when given (one channel of the kernel's type)
  std::string held;                // else: the state the worker kept under this name (WorkerReply kNotHeldMessage
                                   // when it has not: a fresh worker)
  std::string keep_as;             // non-empty: the worker keeps the latest state on its GPU under this name
  bool download = true;            // the latest state comes back in UserStepRun::state
};

// `initial`: one channel of the kernel's element type. options.warmup and options.repeat are ignored: each of
// the `steps` launches is a step, timed.
UserStepRun run_user_steps(WorkerClient& worker, const CompiledKernel& kernel, const Image& initial, int steps,
                           const UserLaunchOptions& options);
// `steps` steps over a state of `shape` from `states`; 0 steps only brings a held state back (keep_as keeps it).
UserStepRun run_user_steps(WorkerClient& worker, const CompiledKernel& kernel, const ImageShape& shape, int steps,
                           const StepStates& states, const UserLaunchOptions& options);

// Whether a run failed because the worker did not hold the state it was asked to start from.
bool held_state_missing(const WorkerReply& reply);

}  // namespace ks::usercode
