#include "lab/reduce/sum_lab.hpp"

#include <fmt/format.h>

#include <cmath>

#include "lab/lab_check.hpp"

namespace ks::lab {

ParamSpec accumulate_param() {
  return choice_param(
      "accumulate", {"f32", "f64"}, "f32",
      "The type partial sums are carried in (the values are f32 either way): f32 shows the rounding error of "
      "long sums, f64 nearly removes it (native f64 atomics on sm_60+)");
}

Accumulate accumulate_of(const ParamSet& params) {
  return accumulate_from_string(params.get_choice("accumulate"));
}

std::vector<VariantSpec> sum_variants(const std::string& cpu_help, const SumCode& code) {
  // A CUDA variant's files: its sum kernel, then where the values come from.
  auto cuda_sources = [&](SourceFile sum) {
    std::vector<SourceFile> files{std::move(sum)};
    files.insert(files.end(), code.values.begin(), code.values.end());
    return files;
  };
  const std::string kernels = "gpu/lab/reduce/cuda/sum_kernels.cuh";
  return {
      {"cpu", Backend::Cpu, cpu_help, {code.cpu}},
      {"atomic", Backend::Cuda,
       "Every thread atomicAdds its value to one global result: all threads queue on one address (the lesson "
       "in contention); grid = ceil(n / block)",
       cuda_sources({kernels, "atomic_sum_kernel("})},
      {"shared", Backend::Cuda,
       "Each thread sums values a grid apart, then a shared-memory tree per block halves the block to one "
       "partial (block: a power of two); a second kernel of one block sums the partials",
       cuda_sources({kernels, "tree_sum_kernel("})},
      {"warp", Backend::Cuda,
       "A grid sized to the device; each thread sums many values (reduce: four 16-byte loads in flight), "
       "warp shuffles reduce each warp in registers, one atomicAdd per block (block: a multiple of 32)",
       cuda_sources(code.warp)},
      {"cub", Backend::Cuda,
       "cub::DeviceReduce from the CUDA toolkit (CUB chooses block, grid and passes): what a professional "
       "would call",
       cuda_sources({"gpu/lab/reduce/cuda/sum_driver.cuh", "cub::DeviceReduce::Reduce("})}};
}

SumVariant sum_variant_of(const std::string& variant) {
  if (variant == "cpu") throw Error(ErrorKind::Internal, "the cpu variant has no device sum");
  return sum_variant_from_string(variant);
}

ArraySpec sum_output(Accumulate accumulate, ArraySplit split, std::string help) {
  const DType type = accumulate == Accumulate::F64 ? DType::F64 : DType::F32;
  return {"sum", type, {1}, ArrayRole::Output, split, std::move(help)};
}

double read_sum(const ArrayView& view) {
  return view.spec->type == DType::F64 ? view.as<const double>()[0] : double(view.as<const float>()[0]);
}

void write_sum(const ArrayView& view, double value) {
  if (view.spec->type == DType::F64)
    view.as<double>()[0] = value;
  else
    view.as<float>()[0] = float(value);
}

LabCheck check_sum(double reference, double sum, double bound, const std::string& what) {
  if (std::isfinite(bound)) return compare_within(reference, sum, bound, what);
  LabCheck c;
  c.detail = fmt::format(
      "{}: {:.9g} vs {:.9g}; no a-priori rounding bound for this many values in f32 (past 2^23 values "
      "gamma_(n-1) >= 1: the worst case allows an error as large as sum|x|): see the rounding error; "
      "accumulate=f64 is checked",
      what, sum, reference);
  return c;
}

void add_rounding_facts(LabFacts& facts, double sum, const SumReference& reference, double bound,
                        double scale) {
  const double error = (sum - reference.sum) * scale;
  facts.add("compensated sum", fmt::format("{:.17g}", reference.sum * scale), reference.sum * scale);
  facts.add("rounding error",
            fmt::format("{:.3g} (relative {:.3g}) vs the compensated sum", error,
                        reference.sum != 0 ? std::fabs(error / (reference.sum * scale)) : 0.0),
            error);
  if (!std::isfinite(bound)) {
    facts.add("rounding bound",
              "none in f32 past 2^23 values: the worst case of any summation order (gamma_(n-1) * sum|x|, "
              "gamma_(n-1) >= 1) allows an error as large as sum|x|, so it rules nothing out; accumulate=f64 "
              "has one");
    return;
  }
  const std::string relative =
      reference.sum != 0 ? fmt::format("{:.3g} of the sum; ", std::fabs(bound / reference.sum)) : std::string();
  facts.add("rounding bound",
            fmt::format("{:.3g} ({}the largest error any summation order can make: gamma_(n-1) * sum|x|)",
                        bound * scale, relative),
            bound * scale);
}

SumCudaRun::SumCudaRun(Planner planner, Launcher launcher, const LabSize& size, bool chunked)
    : planner_(std::move(planner)), launcher_(std::move(launcher)), chunked_(chunked), size_(size) {
  plan_for(size);  // validates the block now, before the framework allocates anything
}

const DeviceSumPlan& SumCudaRun::plan_for(const LabSize& piece) const {
  auto it = plans_.find(piece.dims[0]);
  if (it == plans_.end()) it = plans_.emplace(piece.dims[0], planner_(piece)).first;
  return it->second;
}

std::size_t SumCudaRun::workspace_bytes(const LabSize& piece) const {
  std::size_t bytes = plan_for(piece).workspace_bytes;
  if (chunked_ && piece.dims[0] < size_.dims[0]) {  // the other chunk size, one element longer
    LabSize longer = piece;
    ++longer.dims[0];
    bytes = std::max(bytes, plan_for(longer).workspace_bytes);
  }
  return bytes;
}

std::optional<LaunchGeometry> SumCudaRun::geometry(const LabSize& piece) const {
  const DeviceSumPlan& p = plan_for(piece);
  if (p.variant == SumVariant::Cub) return std::nullopt;
  LaunchGeometry g;
  g.grid_x = p.grid;
  g.block = {p.block, 1};
  g.work_items = p.n;
  g.occupancy = p.occupancy;
  return g;
}

void SumCudaRun::launch(const LabLaunch& l) {
  launcher_(plan_for(l.size), l);
}

void SumCudaRun::describe(LabFacts& facts) const {
  const DeviceSumPlan& p = plan_for(size_);
  facts.add("passes", p.passes);
  if (p.variant != SumVariant::Cub)
    facts.add("values per thread", fmt::format("up to {}", p.values_per_thread), double(p.values_per_thread));
}

}  // namespace ks::lab
