#include "registry/registry.hpp"

#include "core/error.hpp"

namespace ks {

const KernelRegistry& KernelRegistry::builtin() {
  // A function-local static: built once, thread-safe, immutable after construction.
  static const KernelRegistry registry = [] {
    KernelRegistry r;
    register_stencil_kernels(r);
    register_simulation_kernels(r);
    register_lab_kernels(r);
    register_topology_kernels(r);
    return r;
  }();
  return registry;
}

void KernelRegistry::add(KernelSpec spec) {
  if (find(spec.id)) throw Error(ErrorKind::Internal, "kernel '" + spec.id + "' is registered twice");
  kernels_.push_back(std::move(spec));
}

const KernelSpec* KernelRegistry::find(const std::string& id) const {
  for (const auto& k : kernels_)
    if (k.id == id) return &k;
  return nullptr;
}

const KernelSpec& KernelRegistry::get(const std::string& id) const {
  if (const KernelSpec* k = find(id)) return *k;
  std::string known;
  for (const auto& k : kernels_) known += (known.empty() ? "" : ", ") + k.id;
  throw_usage("unknown kernel '" + id + "'", "known kernels: " + known + " (see `kernelscope-cli list`)");
}

}  // namespace ks
