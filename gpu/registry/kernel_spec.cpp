#include "registry/kernel_spec.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace ks {

const char* to_string(Backend b) noexcept { return b == Backend::Cpu ? "cpu" : "cuda"; }

Backend backend_from_string(const std::string& s) {
  if (s == "cpu") return Backend::Cpu;
  if (s == "cuda") return Backend::Cuda;
  throw_usage("unknown backend '" + s + "'", "use --backend cpu or --backend cuda");
}

const VariantSpec* KernelSpec::find_variant(const std::string& name) const {
  for (const auto& v : variants)
    if (v.name == name) return &v;
  return nullptr;
}

std::span<const SourceFile> KernelSpec::sources_of(const std::string& name) const {
  const VariantSpec* v = find_variant(name);
  return v ? std::span<const SourceFile>(v->sources) : std::span<const SourceFile>();
}

bool KernelSpec::takes(ElemType t) const { return std::find(types.begin(), types.end(), t) != types.end(); }

bool KernelSpec::takes_channels(int c) const {
  return std::find(channels.begin(), channels.end(), c) != channels.end();
}

}  // namespace ks
