#include "cli/backend_choice.hpp"

#include <fmt/format.h>

#include "cli/request_checks.hpp"
#include "core/error.hpp"

namespace ks::cli {

Backend default_backend(Engine& engine, std::string& note) {
  if (engine.cuda_available()) return Backend::Cuda;
  note = fmt::format("backend: cpu, because there is no CUDA device: {}", cuda_missing_reason(engine));
  return Backend::Cpu;
}

Backend choose_backend(const std::string& backend, const std::string& variant, const std::string& block,
                       const KernelSpec& spec, Engine& engine, std::string& note) {
  if (!backend.empty()) return backend_from_string(backend);
  if (!variant.empty()) {
    if (const VariantSpec* v = spec.find_variant(variant)) return v->backend;
    return Backend::Cpu;  // check_variant reports the unknown name
  }
  if (!block.empty()) return Backend::Cuda;
  return default_backend(engine, note);
}

Backend choose_checked_backend(const std::string& backend, const std::string& variant, const std::string& block,
                               const KernelSpec& spec, const ParamSet& params, Engine& engine, std::string& note) {
  const Backend chosen = choose_backend(backend, variant, block, spec, engine, note);
  if (!variant.empty()) check_variant(spec, chosen, variant, params);
  if (chosen == Backend::Cpu && !block.empty())
    throw_usage("--block applies to the CUDA backend only", "drop --block, or use --backend cuda");
  if (chosen == Backend::Cuda) require_cuda(engine, "--backend cpu");
  return chosen;
}

const DeviceInfo* device_of(Runtime& runtime, Backend backend) {
  return backend == Backend::Cuda ? &runtime.cuda().device() : nullptr;
}

}  // namespace ks::cli
