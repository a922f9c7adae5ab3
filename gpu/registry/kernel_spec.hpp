#pragma once
// The description of one kernel: everything a reader (GUI, CLI, tests, benchmarks) needs to offer it,
// check a request against it and say what it costs. How it runs lives with its backends.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/backend.hpp"
#include "core/image.hpp"
#include "core/op_mix.hpp"
#include "registry/params.hpp"

namespace ks {

namespace lab {
class LabKernel;  // gpu/lab/lab_kernel.hpp
}

// One file of a variant's code and the place in it where the variant starts: what the app's Source panel shows
// and scrolls to, and what "edit a copy" of a built-in variant will start from. `path` must be one of the files
// the build embeds (gpu/CMakeLists.txt's KS_KERNEL_SOURCE_FILES: the .cpp, .cu and .cuh files of the kernel
// families, not their .hpp headers), and `entry` must occur in it: tests/cpu/test_source_embedded.cpp checks
// both for every registered variant.
struct SourceFile {
  std::string path;   // repository-relative: "gpu/stencil/cuda/naive_window.cu"
  std::string entry;  // text whose first occurrence starts the variant: the __global__ kernel it launches
                      // ("naive_window_kernel("), a CPU variant's function ("void linear("), a library call
                      // ("cublas_api().sgemm(")
};

// What a launch must move and compute, for bandwidth and throughput figures.
struct CostModel {
  std::uint64_t bytes = 0;       // the fewest bytes that must cross device memory: inputs read once, outputs written once
  std::uint64_t operations = 0;  // arithmetic operations (multiply-adds count as two)
  // The same operations by kind, each held against its own ceiling on the roofline (core/op_mix.hpp). Empty
  // for a model that does not tell them apart: its operations then count as f32 FMA (roofline_mix).
  OpMix mix;

  // A model from its bytes and its operations by kind (operations = the mix's total).
  static CostModel of(std::uint64_t bytes, const OpMix& mix) { return {bytes, mix.operations(), mix}; }
  // The mix the roofline holds: `mix`, or `operations` as f32 FMA where the model has no mix.
  OpMix roofline_mix() const { return mix.total() > 0 ? mix : OpMix::of(OpKind::F32Fma, double(operations)); }
};

struct VariantSpec {
  std::string name;  // "cpu", "naive", "tiled", "separable", ...
  Backend backend = Backend::Cpu;
  std::string help;
  // Where its code is, most telling first: the file of the function it runs, then the files of what that
  // calls (a SIMD loop, a shared device routine). A variant that runs different kernels for different
  // parameters (the stencils' tiled and separable) lists every file that may serve it.
  std::vector<SourceFile> sources;
  // Computes an approximation of the kernel (the gaussian's recursive variants: within 0.1% of the value range,
  // README), not its exact arithmetic: tests hold it to its own tolerance, not to the exact variants'.
  bool approximate = false;
  // The variant's own cost where its algorithm does other work than the kernel's (the recursive Gaussian runs
  // recursions, not the window's taps); empty: the kernel's cost (KernelSpec::cost_of).
  std::function<CostModel(const ImageShape&, const ParamSet&)> cost = {};
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
  // The cost of running `variant`: its own cost where it has one, else the kernel's.
  CostModel cost_of(const std::string& variant, const ImageShape& shape, const ParamSet& params) const;
  // The source files of variant `name` (VariantSpec::sources); empty when the kernel has no such variant.
  std::span<const SourceFile> sources_of(const std::string& name) const;
  bool takes(ElemType t) const;
  bool takes_channels(int c) const;
  ParamSet default_params() const { return ParamSet(params); }
};

}  // namespace ks
