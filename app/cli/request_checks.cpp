#include "cli/request_checks.hpp"

#include <fmt/format.h>

#include "core/device_info.hpp"
#include "core/error.hpp"

namespace ks::cli {

ParamSet params_from_assignments(const KernelSpec& spec, const std::vector<std::string>& assignments) {
  ParamSet params = spec.default_params();
  for (const auto& a : assignments) {
    try {
      params.set_assignment(a);
    } catch (const Error& e) {
      // The parameter set does not know its kernel; name it so "unknown parameter" is actionable.
      if (e.kind() != ErrorKind::Usage) throw;
      throw Error(ErrorKind::Usage, fmt::format("{} (kernel '{}')", e.what(), spec.id), e.hint());
    }
  }
  return params;
}

void check_variant(const KernelSpec& spec, Backend backend, const std::string& variant,
                   const ParamSet& params) {
  const VariantSpec* v = spec.find_variant(variant);
  if (!v) {
    std::string known;
    for (const auto& x : spec.variants) known += (known.empty() ? "" : ", ") + x.name;
    throw_usage(fmt::format("kernel '{}' has no variant '{}'", spec.id, variant),
                "its variants are: " + known);
  }
  if (v->backend != backend)
    throw_usage(fmt::format("variant '{}' runs on the {} backend, not {}", variant, to_string(v->backend),
                            to_string(backend)),
                fmt::format("use --backend {} with it, or drop --variant", to_string(v->backend)));
  if (spec.unavailable_reason)
    if (auto why = spec.unavailable_reason(variant, params))
      throw_usage(
          fmt::format("variant '{}' cannot run '{}' with these parameters: {}", variant, spec.id, *why));
}

CudaContext& require_cuda(Engine& engine, const std::string& cpu_flag) {
  try {
    return engine.cuda();
  } catch (const Error& e) {
    // The engine may already have folded the context's hint into the message (it remembers the first
    // failure).
    if (e.full_message().find(cpu_flag) != std::string::npos) throw;
    const std::string hint = "use " + cpu_flag;
    throw Error(e.kind(), e.what(), e.hint().empty() ? hint : e.hint() + "; or " + hint);
  }
}

std::string cuda_missing_reason(Engine& engine) {
  // The device query says plainly what is missing; the context's error (a device that exists but failed to
  // start) is the fallback.
  std::string reason = no_device_reason();
  return reason.empty() ? engine.cuda_unavailable_reason() : reason;
}

ElemType kernel_type_from_string(const std::string& text) {
  if (text == "u8") return ElemType::U8;
  if (text == "f32") return ElemType::F32;
  throw_usage(fmt::format("unknown element type '{}'", text), "stencil kernels take u8 or f32");
}

}  // namespace ks::cli
