#include "usercode/run/user_array.hpp"

#include <fmt/format.h>

#include <climits>
#include <cstring>

#include "core/error.hpp"

namespace ks::usercode {

namespace {

std::uint64_t round_up(std::uint64_t v, std::uint64_t to) { return (v + to - 1) / to * to; }

}  // namespace

const char* c_type_name(DType t) noexcept {
  switch (t) {
    case DType::F32: return "float";
    case DType::F64: return "double";
    case DType::I32: return "int";
    case DType::U32: return "unsigned int";
    case DType::U64: return "unsigned long long";
  }
  return "?";
}

ArrayForm array_form(const CompiledKernel& kernel) {
  if (!kernel.family || *kernel.family != Family::Array)
    throw_usage("this kernel is not of the array family",
                "declare `// @family array` and take (const T* in1, ..., T* out, int n, PARAMS...)");
  const auto& types = kernel.entry_facts().parameter_types;
  ArrayForm form;
  for (DType t : {DType::F32, DType::F64, DType::I32, DType::U32})
    if (!types.empty() && types[0] == std::string(c_type_name(t)) + " const*") form.element = t;
  form.inputs = 0;
  while (form.inputs < static_cast<int>(types.size()) && types[static_cast<std::size_t>(form.inputs)] == types[0])
    ++form.inputs;
  form.scalar_output = kernel.declarations.output == OutputKind::Scalar;
  return form;
}

UserArrayRun run_user_array(WorkerClient& worker, const CompiledKernel& kernel,
                            const std::vector<std::span<const std::byte>>& inputs, std::size_t n,
                            const UserLaunchOptions& options) {
  const ArrayForm form = array_form(kernel);
  const std::size_t elem = dtype_size(form.element);
  if (static_cast<int>(inputs.size()) != form.inputs)
    throw_usage(fmt::format("your kernel takes {} input array{}; {} given", form.inputs, form.inputs == 1 ? "" : "s",
                            inputs.size()));
  if (n == 0 || n > static_cast<std::size_t>(INT_MAX))
    throw_usage(fmt::format("n = {} elements: an array kernel takes 1 to {} (n is an int)", n, INT_MAX));
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].size() != n * elem)
      throw_usage(fmt::format("input {} has {} bytes; {} elements of {} take {}", i + 1, inputs[i].size(), n,
                              c_type_name(form.element), n * elem));
  unsigned block = options.block[0] == 0 ? 256 : options.block[0];
  const unsigned block_y = options.block[1] == 0 ? 1 : options.block[1];
  if (block_y != 1)
    throw_usage(fmt::format("an array kernel runs in a 1-D grid; block {}x{} has a second side", block, block_y),
                "give the threads per block alone, e.g. --block 256");
  check_user_block(kernel, {block, 1});

  UserArrayRun run;
  run.block = block;
  run.grid = static_cast<unsigned>((n + block - 1) / block);
  LaunchPlan plan;
  place_module(plan, *kernel.module);
  plan.entry = kernel.entry_facts().mangled_name;
  plan.grid = {run.grid, 1, 1};
  plan.block = {block, 1, 1};
  plan.warmup = options.warmup;
  plan.timed = options.repeat;
  plan.checked = options.checked;
  plan.counters = options.counters;
  plan.counter_set = options.counter_set;
  std::uint64_t offset = round_up(plan.module_bytes, 256);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    plan.buffers.push_back({n * elem, offset, true, false, false, ""});
    plan.arguments.push_back(buffer_argument(static_cast<int>(i)));
    offset = round_up(offset + n * elem, 256);
  }
  const std::size_t out_bytes = form.scalar_output ? elem : n * elem;
  plan.buffers.push_back({out_bytes, offset, false, true, form.scalar_output, ""});
  plan.arguments.push_back(buffer_argument(static_cast<int>(inputs.size())));
  plan.arguments.push_back(int_argument(static_cast<int>(n)));
  add_declared_arguments(plan, kernel.declarations, options.params);

  SharedMemory& memory = worker.shared_memory(offset + out_bytes);
  worker.mark_input({}, 0);  // whatever input the block held is overwritten now
  std::memcpy(memory.bytes().data(), kernel.module->cubin.data(), kernel.module->cubin.size());
  for (std::size_t i = 0; i < inputs.size(); ++i)
    std::memcpy(memory.bytes().data() + plan.buffers[i].offset, inputs[i].data(), inputs[i].size());
  run.reply = worker.run(plan, memory, options.cancelled);
  name_counters(run.reply, kernel);
  if (run.reply.outcome == RunOutcome::Ok)
    run.output.assign(memory.bytes().data() + offset, memory.bytes().data() + offset + out_bytes);
  return run;
}

}  // namespace ks::usercode
