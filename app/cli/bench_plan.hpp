#pragma once
// What `bench` sweeps: kernels x sizes x element types x channel counts x variants (the CPU reference and
// each applicable CUDA variant) x block shapes (CUDA only), expanded into a list of cases before anything
// runs, so a bad request fails at once and the progress bar knows the total.
#include <optional>
#include <string>
#include <vector>

#include "core/image.hpp"
#include "core/launch_shape.hpp"
#include "lab/lab_size.hpp"
#include "registry/kernel_spec.hpp"
#include "registry/params.hpp"

namespace ks::cli {

struct BenchConfig {
  std::vector<std::string> kernels;
  // As given: stencils square images (size x size: "1024", "2^10"), lab kernels their sizes ("2^28",
  // "512x512x512"). Empty: each family's defaults (lab kernels: LabInfo::bench_sizes_*).
  std::vector<std::string> sizes;
  std::vector<ElemType> types;
  std::vector<int> channels;
  std::vector<BlockShape> blocks;  // tried for every CUDA variant of a stencil
  std::vector<BlockShape> lab_blocks;  // for lab kernels; empty: each kernel's LabInfo::bench_blocks
  bool cuda = false;                   // a usable device: picks the lab kernels' default sizes
  std::vector<Backend> backends;
  std::vector<std::string> params;  // NAME=VALUE, applied to every selected kernel that has NAME
  std::vector<std::string> variants;  // only these variants (each must be a variant of a selected kernel); empty: all
  int repeat = 5;
  int warmup = 1;
  bool counters = false;  // each CUDA case: the hardware counters of one more launch (in its report)
};

struct BenchCase {
  const KernelSpec* spec = nullptr;
  ParamSet params;
  int size = 0;
  ElemType type = ElemType::U8;
  int channels = 1;
  Backend backend = Backend::Cpu;
  std::string variant;
  std::optional<BlockShape> block;  // CUDA only
  std::optional<lab::LabSize> lab_size;  // lab kernels (type and channels do not apply to them)

  ImageShape shape() const { return {size, size, channels, type}; }
  // "box u8 1024 1ch tiled 16x16", "vecadd 2^28 vector4 256x1"
  std::string label() const;
  // Units of work for ETA estimates: elements processed over all runs.
  double work(int runs) const;
};

// Usage Error for unknown kernels, parameters no selected kernel has, bad values, sizes < 1 or of the wrong form,
// empty lists, types other than u8/f32, channel counts no selected stencil takes, and a sweep with no case.
std::vector<BenchCase> plan_bench(const BenchConfig& config);

}  // namespace ks::cli
