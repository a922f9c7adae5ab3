#include "usercode/run/user_launch.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace ks::usercode {

namespace {

// FNV-1a over the CUBIN: a module's identity in the worker's cache of loaded modules.
std::string module_hash(const std::vector<char>& bytes) {
  std::uint64_t h = 1469598103934665603ull;
  for (char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return fmt::format("{:016x}-{}", h, bytes.size());
}

}  // namespace

void check_user_block(const CompiledKernel& kernel, std::array<unsigned, 2> block) {
  const unsigned threads = block[0] * block[1];
  if (block[0] == 0 || block[1] == 0)
    throw_usage(fmt::format("block {}x{} has no threads", block[0], block[1]), "use e.g. --block 32x8");
  if (block[0] > 1024 || block[1] > 1024 || threads > 1024)
    throw_usage(fmt::format("block {}x{} has {} threads; a CUDA block has at most 1024", block[0], block[1],
                            threads),
                "use e.g. --block 32x8");
  const KernelFacts& f = kernel.entry_facts();
  if (f.launch_bound > 0 && static_cast<int>(threads) > f.launch_bound)
    throw_usage(fmt::format("block {}x{} has {} threads; your kernel's __launch_bounds__ allows at most {}",
                            block[0], block[1], threads, f.launch_bound),
                "use a smaller block, or raise the kernel's __launch_bounds__");
  if (f.resources_reported && static_cast<int>(threads) > f.max_threads_per_block)
    throw_usage(fmt::format("block {}x{} has {} threads; with {} registers per thread your kernel can have at most "
                            "{} threads per block",
                            block[0], block[1], threads, f.registers, f.max_threads_per_block),
                "use a smaller block, or fewer registers (__launch_bounds__ makes the compiler try)");
}

void name_counters(WorkerReply& reply, const CompiledKernel& kernel) {
  if (reply.counters && reply.counters->counters) reply.counters->counters->kernel_name = kernel.entry_facts().name;
}

void place_module(LaunchPlan& plan, const CompiledModule& module) {
  plan.module_offset = 0;
  plan.module_bytes = module.cubin.size();
  plan.module_key = module_hash(module.cubin);
}

void add_declared_arguments(LaunchPlan& plan, const KernelDeclarations& declarations,
                            const std::vector<double>& values) {
  for (std::size_t i = 0; i < declarations.parameters.size(); ++i) {
    LaunchArgument a;
    const double v = i < values.size() ? values[i] : declarations.parameters[i].value;
    if (declarations.parameters[i].type == ParamType::Int) {
      a.kind = ArgumentKind::Int32;
      a.integer = static_cast<std::int64_t>(v);
    } else {
      a.kind = ArgumentKind::Float32;
      a.real = v;
    }
    plan.arguments.push_back(a);
  }
}

}  // namespace ks::usercode
