#include "usercode/run/user_step.hpp"

#include <fmt/format.h>

#include <cstring>

#include "core/error.hpp"

namespace ks::usercode {

namespace {

std::uint64_t round_up(std::uint64_t v, std::uint64_t to) { return (v + to - 1) / to * to; }

}  // namespace

ElemType step_element(const CompiledKernel& kernel) {
  if (!kernel.family || *kernel.family != Family::Step)
    throw_usage("this kernel is not of the step family",
                "declare `// @family step` and take (const T* state, T* next, int width, int height, PARAMS...)");
  const auto& types = kernel.entry_facts().parameter_types;
  return !types.empty() && types[0] == "unsigned char const*" ? ElemType::U8 : ElemType::F32;
}

UserStepRun run_user_steps(WorkerClient& worker, const CompiledKernel& kernel, const Image& initial, int steps,
                           const UserLaunchOptions& options) {
  StepStates states;
  states.initial = &initial;
  return run_user_steps(worker, kernel, initial.shape(), steps, states, options);
}

UserStepRun run_user_steps(WorkerClient& worker, const CompiledKernel& kernel, const ImageShape& shape, int steps,
                           const StepStates& states, const UserLaunchOptions& options) {
  const ElemType type = step_element(kernel);
  if (shape.type != type || shape.channels != 1)
    throw_usage(fmt::format("your step kernel takes one {} per cell; the initial state is {} with {} channel{}",
                            to_string(type), to_string(shape.type), shape.channels, shape.channels == 1 ? "" : "s"));
  if (states.initial && states.initial->shape() != shape)
    throw Error(ErrorKind::Internal, "a step request's initial state is not of the shape it names");
  if (!states.initial && states.held.empty())
    throw Error(ErrorKind::Internal, "a step request with neither an initial state nor a held one");
  if (steps < 0 || (steps == 0 && states.initial)) throw_usage(fmt::format("{} steps: run at least one", steps));
  std::array<unsigned, 2> block = options.block;
  if (block[0] == 0) block = {32, 8};
  check_user_block(kernel, block);

  UserStepRun run;
  run.block = block;
  run.grid = {(static_cast<unsigned>(shape.width) + block[0] - 1) / block[0],
              (static_cast<unsigned>(shape.height) + block[1] - 1) / block[1]};
  LaunchPlan plan;
  place_module(plan, *kernel.module);
  plan.entry = kernel.entry_facts().mangled_name;
  plan.grid = {run.grid[0], run.grid[1], 1};
  plan.block = {block[0], block[1], 1};
  plan.warmup = 0;
  plan.timed = steps;
  plan.swap_first_two = true;
  plan.checked = options.checked;
  plan.counters = options.counters;
  plan.counter_set = options.counter_set;
  const std::uint64_t bytes = shape.byte_size();
  const std::uint64_t state_offset = round_up(plan.module_bytes, 256);
  const std::uint64_t next_offset = round_up(state_offset + bytes, 256);
  BufferPlan state{bytes, state_offset, states.initial != nullptr, states.download, false, states.held};
  state.require_held = !states.initial;
  state.keep_as = states.keep_as;
  plan.buffers.push_back(state);  // the latest state comes back here
  plan.buffers.push_back({bytes, next_offset, false, false, false, ""});
  plan.arguments.push_back(buffer_argument(0));
  plan.arguments.push_back(buffer_argument(1));
  plan.arguments.push_back(int_argument(shape.width));
  plan.arguments.push_back(int_argument(shape.height));
  add_declared_arguments(plan, kernel.declarations, options.params);

  SharedMemory& memory = worker.shared_memory(next_offset + bytes);
  worker.mark_input({}, 0);  // whatever input the block held is overwritten now
  std::memcpy(memory.bytes().data(), kernel.module->cubin.data(), kernel.module->cubin.size());
  if (states.initial) std::memcpy(memory.bytes().data() + state_offset, states.initial->data(), bytes);
  run.reply = worker.run(plan, memory, options.cancelled);
  name_counters(run.reply, kernel);
  if (run.reply.outcome == RunOutcome::Ok && states.download)
    run.state = Image(shape, memory.bytes().subspan(state_offset, bytes));
  return run;
}

bool held_state_missing(const WorkerReply& reply) {
  return reply.outcome == RunOutcome::Failed && reply.message == kNotHeldMessage;
}

}  // namespace ks::usercode
