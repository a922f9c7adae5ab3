#include "registry/kernel_spec.hpp"

#include <algorithm>

#include "core/enum_names.hpp"
#include "core/error.hpp"

namespace ks {

namespace {
constexpr EnumName<Backend> kBackendNames[] = {{Backend::Cpu, "cpu"}, {Backend::Cuda, "cuda"}};
}

const char* to_string(Backend b) noexcept {
  return name_of(kBackendNames, b);
}

Backend backend_from_string(const std::string& s) {
  return value_named(kBackendNames, s, "backend", "use " + names_listed(kBackendNames, "--backend "));
}

const VariantSpec* KernelSpec::find_variant(const std::string& name) const {
  for (const auto& v : variants)
    if (v.name == name) return &v;
  return nullptr;
}

bool KernelSpec::takes(ElemType t) const { return std::find(types.begin(), types.end(), t) != types.end(); }

bool KernelSpec::takes_channels(int c) const {
  return std::find(channels.begin(), channels.end(), c) != channels.end();
}

}  // namespace ks
