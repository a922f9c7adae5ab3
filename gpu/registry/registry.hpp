#pragma once
// The one list of kernels. Built once per process by `KernelRegistry::builtin()`; each family of kernels
// contributes its specs through a `register_*` function, so adding a kernel is one spec plus one line.
//
// The spec (kernel_spec.hpp) is everything the rest of the project knows about a kernel: its parameters, its
// variants and, for each variant, the source files of its code and the function it starts in
// (VariantSpec::sources), which the app's Source panel shows; a CPU test fails when a variant lists none, or a
// file the build does not embed, or a function its file does not hold. How a kernel runs is its family's
// backends (stencil: stencil/stencil_plan.hpp and the CPU / CUDA backends; simulation: sim/simulation.hpp;
// lab: lab/lab_kernel.hpp, whose "How to add a lab kernel" lists what a lab kernel supplies). Each family's
// registration file says what a new kernel of that family needs.
#include <string>
#include <vector>

#include "registry/kernel_spec.hpp"

namespace ks {

class KernelRegistry {
 public:
  // Every kernel the project ships. Built on first use; immutable afterwards (safe to share between threads).
  static const KernelRegistry& builtin();

  void add(KernelSpec spec);  // throws Internal on a duplicate id
  const std::vector<KernelSpec>& kernels() const noexcept { return kernels_; }
  const KernelSpec* find(const std::string& id) const;
  // Like find, but throws a usage Error listing the known ids.
  const KernelSpec& get(const std::string& id) const;

 private:
  std::vector<KernelSpec> kernels_;
};

// Contributions of each kernel family (defined beside the family's code).
void register_stencil_kernels(KernelRegistry& registry);
void register_simulation_kernels(KernelRegistry& registry);  // gpu/sim/sim_kernels.cpp
void register_lab_kernels(KernelRegistry& registry);         // gpu/lab/lab_kernels.cpp
void register_topology_kernels(KernelRegistry& registry);    // gpu/topo/search/search_spec.cpp

}  // namespace ks
