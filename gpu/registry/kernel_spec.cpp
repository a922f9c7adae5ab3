#include "registry/kernel_spec.hpp"

#include <algorithm>

namespace ks {

const VariantSpec* KernelSpec::find_variant(const std::string& name) const {
  for (const auto& v : variants)
    if (v.name == name) return &v;
  return nullptr;
}

CostModel KernelSpec::cost_of(const std::string& variant, const ImageShape& shape, const ParamSet& params) const {
  const VariantSpec* v = find_variant(variant);
  return v && v->cost ? v->cost(shape, params) : cost(shape, params);
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
