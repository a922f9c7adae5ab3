#include "registry/kernel_spec.hpp"

#include <algorithm>

namespace ks {

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
