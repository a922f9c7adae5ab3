#pragma once
// The description of one kernel: everything a reader (GUI, CLI, tests, benchmarks) needs to offer it,
// check a request against it and say what it costs. How it runs lives with its backends.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/backend.hpp"
#include "core/image.hpp"
#include "registry/params.hpp"

namespace ks {

namespace lab {
class LabKernel;  // gpu/lab/lab_kernel.hpp
}

struct VariantSpec {
  std::string name;  // "cpu", "naive", "tiled", "separable", ...
  Backend backend = Backend::Cpu;
  std::string help;
};

// What a launch must move and compute, for bandwidth and throughput figures.
struct CostModel {
  std::uint64_t bytes = 0;       // the fewest bytes that must cross device memory: inputs read once, outputs written once
  std::uint64_t operations = 0;  // arithmetic operations (multiply-adds count as two)
};

struct KernelSpec {
  std::string id;        // "box"
  std::string title;     // "Box blur"
  std::string category;  // "stencil", "simulation", "topology"
  std::string description;
  std::vector<ParamSpec> params;
  std::vector<VariantSpec> variants;  // the CPU reference first
  std::vector<ElemType> types;        // element types it takes
  std::vector<int> channels;          // channel counts it takes

  // Image-sized kernels (stencils, simulations): the cost for an input shape. Empty for lab kernels, whose
  // sizes are element counts, N x M grids or M x N x K: lab->cost(LabSize, params) answers for them.
  std::function<CostModel(const ImageShape&, const ParamSet&)> cost;
  // Why `variant` cannot run with these parameters (e.g. "separable" for a non-separable matrix), or nullopt.
  std::function<std::optional<std::string>(const std::string& variant, const ParamSet&)> unavailable_reason;

  // Lab kernels (category "lab") only: the size form they take, their limits, arrays, cost and how they run
  // (gpu/lab/lab_kernel.hpp). Null for every other kernel; `types` and `channels` are empty for lab kernels.
  std::shared_ptr<const lab::LabKernel> lab;

  const VariantSpec* find_variant(const std::string& name) const;
  bool takes(ElemType t) const;
  bool takes_channels(int c) const;
  ParamSet default_params() const { return ParamSet(params); }
};

}  // namespace ks
